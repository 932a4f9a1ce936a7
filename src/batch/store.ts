/**
 * The output folder of a batch:
 *
 * - `items/<id>.ndjson` — the item's summary records, written to
 *   `items/.<id>.ndjson.tmp` and renamed when complete, so a visible item
 *   file is always whole;
 * - `batch.lock` — held by the one batch that writes the folder (`lock.ts`);
 * - `attempts.jsonl` — one line per item start (`{"id","attempt","started_at"}`), appended
 *   before the item runs: an item started again after a kill gets attempt 2, and so on;
 * - `index.jsonl` — one {@link IndexEntry} line per finished item, appended
 *   after the rename (a later line for the same id replaces an earlier one,
 *   as `--retry-failed` reruns do).
 *
 * Opening the folder repairs what a SIGKILL can leave behind: stale temporary
 * files are removed, a partial last index line is cut off, and an item file
 * without an index line (killed between rename and append) gets its line
 * rebuilt from its records. An index line whose item file is gone does not
 * count as finished.
 *
 * Safe against the batch process being killed at any moment; a power loss
 * may still lose the last items (nothing is fsynced).
 *
 * A folder that cannot be written (read-only media) opens read-only when it already has an
 * index: its entries are read (an item file without its line counts, from its records) and
 * nothing is repaired, locked or written; {@link BatchStore.commit} then throws.
 *
 * @module
 */

import {
  appendFile,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { entryFromRecords, type IndexEntry, parseRecords } from "./index_entry.ts";
import { ITEM_ID_PATTERN } from "./input.ts";
import { lockOutFolder } from "./lock.ts";
import type { FileLock } from "../runtime/mod.ts";
import { processId } from "../runtime/mod.ts";

/** Name of the index file in an output folder. */
export const INDEX_FILE = "index.jsonl";
/** Name of the attempts file in an output folder. */
export const ATTEMPTS_FILE = "attempts.jsonl";
/** Name of the item folder in an output folder. */
export const ITEMS_DIR = "items";

const TEMP_SUFFIX = ".ndjson.tmp";
const encoder = new TextEncoder();

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}

/** Whether `error` says the folder cannot be written (read-only media or permissions). */
function isReadOnly(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "EROFS" || code === "EACCES" || code === "EPERM";
}

/** A temporary file name no other process uses: pid and a random part. */
function tempSuffix(): string {
  const random = crypto.getRandomValues(new Uint32Array(1))[0]!.toString(36);
  return `.${processId()}-${random}${TEMP_SUFFIX}`;
}

/** Read the index of `dir` (no repair): its entries by id, last line wins. */
export async function readIndex(dir: string): Promise<Map<string, IndexEntry>> {
  const entries = new Map<string, IndexEntry>();
  let text: string;
  try {
    text = await readFile(`${dir}/${INDEX_FILE}`, "utf8");
  } catch (error) {
    if (isNotFound(error)) return entries;
    throw error;
  }
  const lines = text.split("\n");
  // The last element is "" after a final newline, or a partial line cut by a kill.
  lines.pop();
  for (const line of lines) {
    if (line === "") continue;
    try {
      const entry = JSON.parse(line) as IndexEntry;
      if (typeof entry.id === "string") entries.set(entry.id, entry);
    } catch {
      // A torn line in the middle cannot happen with whole-line appends; skip it.
    }
  }
  return entries;
}

/** The ids that have an item file in `dir/items`. */
export async function listItemFiles(dir: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let names: string[];
  try {
    names = await readdir(`${dir}/${ITEMS_DIR}`);
  } catch (error) {
    if (isNotFound(error)) return ids;
    throw error;
  }
  for (const name of names) {
    if (!name.endsWith(".ndjson") || name.startsWith(".")) continue;
    const id = name.slice(0, -".ndjson".length);
    if (ITEM_ID_PATTERN.test(id)) ids.add(id);
  }
  return ids;
}

/** An output folder opened for writing (see the module doc). */
export class BatchStore {
  /** The folder. */
  readonly dir: string;
  readonly #entries: Map<string, IndexEntry>;
  /** The folder's lock, or null when opened read-only. */
  readonly #lock: FileLock | null;
  /** Starts so far by item id. */
  readonly #attempts = new Map<string, number>();
  #appending: Promise<void> = Promise.resolve();

  private constructor(dir: string, entries: Map<string, IndexEntry>, lock: FileLock | null) {
    this.dir = dir;
    this.#entries = entries;
    this.#lock = lock;
  }

  /**
   * Create or reopen `dir` and lock it, repairing what a kill left behind; a folder with an
   * index that cannot be written opens read-only. Throws a usage error when another batch
   * holds the folder (`lock.ts`).
   */
  static async open(dir: string): Promise<BatchStore> {
    let lock: FileLock;
    try {
      await mkdir(`${dir}/${ITEMS_DIR}`, { recursive: true });
      lock = await lockOutFolder(dir);
    } catch (error) {
      if (isReadOnly(error) && await exists(`${dir}/${INDEX_FILE}`)) {
        return await BatchStore.#openReadOnly(dir);
      }
      throw error;
    }
    try {
      return await BatchStore.#repair(dir, lock);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** The entries of a folder that cannot be written: nothing repaired or written. */
  static async #openReadOnly(dir: string): Promise<BatchStore> {
    const indexed = await readIndex(dir);
    const entries = new Map<string, IndexEntry>();
    for (const id of await listItemFiles(dir)) {
      const entry = indexed.get(id) ??
        entryFromRecords(
          id,
          parseRecords(await readFile(`${dir}/${ITEMS_DIR}/${id}.ndjson`, "utf8")),
        );
      entries.set(id, entry);
    }
    return new BatchStore(dir, entries, null);
  }

  /** Repair what a kill left behind in the locked `dir`. */
  static async #repair(dir: string, lock: FileLock): Promise<BatchStore> {
    for (const name of await readdir(`${dir}/${ITEMS_DIR}`)) {
      if (name.startsWith(".") && name.endsWith(TEMP_SUFFIX)) {
        await rm(`${dir}/${ITEMS_DIR}/${name}`, { force: true });
      }
    }
    await cutPartialLine(`${dir}/${INDEX_FILE}`);
    // Created even when no item runs (an empty shard), so `report` reads the folder.
    await appendFile(`${dir}/${INDEX_FILE}`, new Uint8Array());
    const indexed = await readIndex(dir);
    const files = await listItemFiles(dir);
    const entries = new Map<string, IndexEntry>();
    for (const [id, entry] of indexed) if (files.has(id)) entries.set(id, entry);
    const store = new BatchStore(dir, entries, lock);
    await cutPartialLine(`${dir}/${ATTEMPTS_FILE}`);
    await store.#readAttempts();
    for (const id of files) {
      if (entries.has(id)) continue;
      // Killed after the rename, before the index line: rebuild it from the records.
      const text = await readFile(store.itemPath(id), "utf8");
      await store.#append(entryFromRecords(id, parseRecords(text)));
    }
    return store;
  }

  /** Starts recorded in `attempts.jsonl`; an indexed item of an older folder counts once. */
  async #readAttempts(): Promise<void> {
    for (const [id, entry] of this.#entries) this.#attempts.set(id, entry.attempt ?? 1);
    let text: string;
    try {
      text = await readFile(`${this.dir}/${ATTEMPTS_FILE}`, "utf8");
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    for (const line of text.split("\n")) {
      try {
        const { id, attempt } = JSON.parse(line) as { id?: unknown; attempt?: unknown };
        if (typeof id === "string" && typeof attempt === "number") {
          this.#attempts.set(id, Math.max(attempt, this.#attempts.get(id) ?? 0));
        }
      } catch {
        // The empty last element, or a foreign line: skipped.
      }
    }
  }

  /**
   * Record that item `id` starts now; resolves with its attempt (1, or more when it was
   * started before in this folder: after a kill, or `--retry-failed`).
   */
  async start(id: string): Promise<number> {
    if (this.#lock === null) throw new Error(`The output folder is read-only: ${this.dir}`);
    const attempt = (this.#attempts.get(id) ?? 0) + 1;
    this.#attempts.set(id, attempt);
    const line = { id, attempt, started_at: new Date().toISOString() };
    await this.#appendLine(ATTEMPTS_FILE, line);
    return attempt;
  }

  /** Whether the folder was opened read-only (it cannot be written: nothing can run). */
  get readOnly(): boolean {
    return this.#lock === null;
  }

  /** Release the folder's lock (the batch ended); later commits fail. Never throws. */
  async close(): Promise<void> {
    await this.#appending;
    await this.#lock?.release();
  }

  /** The finished items by id (the latest entry of each). */
  get entries(): ReadonlyMap<string, IndexEntry> {
    return this.#entries;
  }

  /** Path of item `id`'s summary file. */
  itemPath(id: string): string {
    return `${this.dir}/${ITEMS_DIR}/${id}.ndjson`;
  }

  /** Make item `id` visible: write its records, rename them into place, then append its line. */
  async commit(id: string, records: Uint8Array, entry: IndexEntry): Promise<void> {
    if (this.#lock === null) throw new Error(`The output folder is read-only: ${this.dir}`);
    const temp = `${this.dir}/${ITEMS_DIR}/.${id}${tempSuffix()}`;
    await writeFile(temp, records);
    await rename(temp, this.itemPath(id));
    await this.#append(entry);
  }

  /** Append one index line. */
  #append(entry: IndexEntry): Promise<void> {
    return this.#appendLine(INDEX_FILE, entry).then(() => {
      this.#entries.set(entry.id, entry);
    });
  }

  /** Append `value` as one line of `file`; appends are serialized (one whole-line write each). */
  #appendLine(file: string, value: unknown): Promise<void> {
    const line = encoder.encode(`${JSON.stringify(value)}\n`);
    const next = this.#appending.then(() => appendFile(`${this.dir}/${file}`, line));
    this.#appending = next.catch(() => {});
    return next;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Cut a partial last line (no final newline) off `path`, atomically; absent is fine. */
async function cutPartialLine(path: string): Promise<void> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  if (bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return;
  const keep = bytes.lastIndexOf(0x0a) + 1;
  await writeFile(`${path}.tmp`, bytes.subarray(0, keep));
  await rename(`${path}.tmp`, path);
}
