/**
 * The output folder of a batch:
 *
 * - `items/<id>.ndjson` — the item's summary records, written to
 *   `items/.<id>.ndjson.tmp` and renamed when complete, so a visible item
 *   file is always whole;
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
 * @module
 */

import { appendFile, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { entryFromRecords, type IndexEntry, parseRecords } from "./index_entry.ts";
import { ITEM_ID_PATTERN } from "./input.ts";

/** Name of the index file in an output folder. */
export const INDEX_FILE = "index.jsonl";
/** Name of the item folder in an output folder. */
export const ITEMS_DIR = "items";

const TEMP_SUFFIX = ".ndjson.tmp";
const encoder = new TextEncoder();

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
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
  #appending: Promise<void> = Promise.resolve();

  private constructor(dir: string, entries: Map<string, IndexEntry>) {
    this.dir = dir;
    this.#entries = entries;
  }

  /** Create or reopen `dir`, repairing what a kill left behind. */
  static async open(dir: string): Promise<BatchStore> {
    await mkdir(`${dir}/${ITEMS_DIR}`, { recursive: true });
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
    const store = new BatchStore(dir, entries);
    for (const id of files) {
      if (entries.has(id)) continue;
      // Killed after the rename, before the index line: rebuild it from the records.
      const text = await readFile(store.itemPath(id), "utf8");
      await store.#append(entryFromRecords(id, parseRecords(text)));
    }
    return store;
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
    const temp = `${this.dir}/${ITEMS_DIR}/.${id}${TEMP_SUFFIX}`;
    await writeFile(temp, records);
    await rename(temp, this.itemPath(id));
    await this.#append(entry);
  }

  /** Append one index line; appends are serialized (one whole-line write each). */
  #append(entry: IndexEntry): Promise<void> {
    const line = encoder.encode(`${JSON.stringify(entry)}\n`);
    const next = this.#appending.then(() => appendFile(`${this.dir}/${INDEX_FILE}`, line));
    this.#appending = next.catch(() => {});
    return next.then(() => {
      this.#entries.set(entry.id, entry);
    });
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
