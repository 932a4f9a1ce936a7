/**
 * Session JSONL files: `$MC_HOME/sessions/<id>.jsonl`, one JSON object per line, each with
 * `type`, `session_id`, `timestamp` (RFC 3339 UTC) and `cwd` (canonical). Record types:
 * `user`, `assistant`, `activity`, `run_finished`, `session_preferences`, `title`,
 * `compaction`, `reasoning_summary` and `tool_card` (see `docs/reference-backend.md`).
 *
 * The revision of an attached file is `r<lines>-<bytes>.<nonce>`: any append changes it,
 * and the per-attachment nonce makes every attachment's revisions distinct (reopening the
 * same unchanged file gives a new revision). Each revision also has a content digest (the
 * SHA-256 of the whole file as this attachment knows it, captured at open and extended by
 * each append): `history.page` compares it with the file, so an edit of the same size is
 * still a mutation.
 *
 * @module
 */

import { createHash, type Hash } from "node:crypto";
import { parseStrictJson } from "../../protocol/json.ts";
import { STORED_HISTORY_BYTES, STORED_HISTORY_LINES } from "../../protocol/limits.ts";

const RECORD_TYPES = new Set([
  "user",
  "assistant",
  "activity",
  "run_finished",
  "session_preferences",
  "title",
  "compaction",
  "reasoning_summary",
  "tool_card",
]);

/** Why a stored session cannot be opened. */
export type ReadFailure = "session_missing" | "session_invalid" | "cwd_mismatch" | "history_limit";

/** An open session file with its append position. */
export class SessionFile {
  readonly #path: string;
  readonly #sessionId: string;
  readonly #cwd: string;
  readonly #nonce: string;
  readonly #hash: Hash;
  #digest: string;
  #lines: number;
  #bytes: number;

  /**
   * Track `path` for `sessionId`, currently `lines` lines and `bytes` bytes long with
   * content `text` (all empty by default: a file not yet created).
   */
  constructor(
    path: string,
    ids: { sessionId: string; cwd: string; lines?: number; bytes?: number; text?: string },
  ) {
    this.#path = path;
    this.#sessionId = ids.sessionId;
    this.#cwd = ids.cwd;
    this.#lines = ids.lines ?? 0;
    this.#bytes = ids.bytes ?? 0;
    this.#nonce = randomNonce();
    this.#hash = createHash("sha256");
    this.#hash.update(ids.text ?? "", "utf8");
    this.#digest = this.#hash.copy().digest("hex");
  }

  /** Path of the JSONL file. */
  get path(): string {
    return this.#path;
  }

  /** The current revision. */
  get revision(): string {
    return `r${this.#lines}-${this.#bytes}.${this.#nonce}`;
  }

  /** The per-attachment nonce (12 lowercase hex digits) that every revision carries. */
  get nonce(): string {
    return this.#nonce;
  }

  /** SHA-256 hex of the file content the current revision denotes. */
  get digest(): string {
    return this.#digest;
  }

  /** Append one record (type and fields); resolves to the new revision. Throws on failure. */
  async append(type: string, fields: Record<string, unknown>): Promise<string> {
    const record = {
      type,
      session_id: this.#sessionId,
      timestamp: new Date().toISOString(),
      cwd: this.#cwd,
      ...fields,
    };
    const line = JSON.stringify(record) + "\n";
    const bytes = new TextEncoder().encode(line);
    await Deno.writeFile(this.#path, bytes, { append: true, create: true });
    this.#lines++;
    this.#bytes += bytes.byteLength;
    this.#hash.update(bytes);
    this.#digest = this.#hash.copy().digest("hex");
    return this.revision;
  }
}

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A validated stored session. */
export interface StoredSession {
  /** Lines in the file. */
  lines: number;
  /** Bytes in the file. */
  bytes: number;
  /** `cwd_unverified` when no record carries a cwd. */
  notices: string[];
  /** The parsed records, in stored order. */
  records: StoredRecord[];
  /** The file's text (for content fingerprints). */
  text: string;
}

/** One parsed stored record (a JSON object with at least `type`, `session_id`, `timestamp`). */
export type StoredRecord = Record<string, unknown> & { type: string; timestamp: string };

/** Read bounds of {@link readStoredSession}; defaults are the stored-history bounds. */
export interface ReadBounds {
  /** Largest file, bytes. */
  maxBytes?: number;
  /** Most lines. */
  maxLines?: number;
  /**
   * Cancels the read: the file read stops and validation yields to the event loop every
   * {@link YIELD_LINES} lines (so `operation.cancel` and `shutdown` are read meanwhile) and
   * stops there; the promise then rejects with the signal's reason.
   */
  signal?: AbortSignal | undefined;
}

/** Validation of a large stored session yields to the event loop after this many lines. */
export const YIELD_LINES = 2_000;

/**
 * Read and validate the stored session at `path` against canonical `cwd`. Every record needs
 * `type`, `session_id` and `timestamp`; the records that show text need it as a well-formed
 * string (`user.text`; `assistant.text`, or legacy string `chunks` without `text`;
 * `compaction.summary`; `reasoning_summary.text` of a provider summary) — anything else makes
 * the session `session_invalid`, never an empty entry.
 */
export async function readStoredSession(
  path: string,
  ids: { sessionId: string; cwd: string },
  bounds: ReadBounds = {},
): Promise<{ ok: true; stored: StoredSession } | { ok: false; code: ReadFailure }> {
  const maxBytes = bounds.maxBytes ?? STORED_HISTORY_BYTES;
  const maxLines = bounds.maxLines ?? STORED_HISTORY_LINES;
  const signal = bounds.signal;
  let data: Uint8Array;
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile) return { ok: false, code: "session_invalid" };
    if (info.size > maxBytes) return { ok: false, code: "history_limit" };
    signal?.throwIfAborted();
    data = await Deno.readFile(path, signal === undefined ? {} : { signal });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const missing = error instanceof Deno.errors.NotFound;
    return { ok: false, code: missing ? "session_missing" : "session_invalid" };
  }
  if (data.byteLength > maxBytes) return { ok: false, code: "history_limit" };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return { ok: false, code: "session_invalid" };
  }
  if (text !== "" && !text.endsWith("\n")) return { ok: false, code: "session_invalid" };
  const lines = text === "" ? [] : text.slice(0, -1).split("\n");
  if (lines.length > maxLines) return { ok: false, code: "history_limit" };
  const cwds = new Set<string>();
  const records: StoredRecord[] = [];
  for (const [index, line] of lines.entries()) {
    if (signal !== undefined && index % YIELD_LINES === YIELD_LINES - 1) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      signal.throwIfAborted();
    }
    const record = validRecord(line, ids.sessionId);
    if (record === null) return { ok: false, code: "session_invalid" };
    if (record.cwd !== null) cwds.add(record.cwd);
    records.push(record.value);
  }
  for (const recorded of cwds) {
    if (!(await sameDirectory(recorded, ids.cwd))) return { ok: false, code: "cwd_mismatch" };
  }
  const notices = cwds.size === 0 ? ["cwd_unverified"] : [];
  return {
    ok: true,
    stored: { lines: lines.length, bytes: data.byteLength, notices, records, text },
  };
}

function validRecord(
  line: string,
  sessionId: string,
): { cwd: string | null; value: StoredRecord } | null {
  const parsed = parseStrictJson(line);
  if (!parsed.ok) return null;
  const value = parsed.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  if (typeof value.type !== "string" || !RECORD_TYPES.has(value.type)) return null;
  if (value.session_id !== sessionId || typeof value.timestamp !== "string") return null;
  const record = value as StoredRecord;
  if (!hasVisibleText(record)) return null;
  if (value.cwd === undefined || value.cwd === "") return { cwd: null, value: record };
  if (typeof value.cwd !== "string") return null;
  return { cwd: value.cwd, value: record };
}

/** Whether the text a record shows (if any) is a well-formed string. */
function hasVisibleText(record: StoredRecord): boolean {
  switch (record.type) {
    case "user":
      return validText(record.text);
    case "assistant":
      // Legacy assistant output without text uses its stored chunks.
      if (record.text === undefined) {
        return Array.isArray(record.chunks) && record.chunks.every(validText);
      }
      return validText(record.text);
    case "compaction":
      return validText(record.summary);
    case "reasoning_summary":
      return record.provider_summary !== true || validText(record.text);
    default:
      return true;
  }
}

function validText(value: unknown): boolean {
  return typeof value === "string" && value.isWellFormed();
}

async function sameDirectory(recorded: string, cwd: string): Promise<boolean> {
  if (!recorded.startsWith("/")) return false;
  try {
    return (await Deno.realPath(recorded)) === cwd;
  } catch {
    return false;
  }
}
