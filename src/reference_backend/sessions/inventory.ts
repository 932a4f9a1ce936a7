/**
 * Bounded scanning of `$MC_HOME/sessions` for `session.list` and `session.discover`.
 *
 * A `session.list` inventory pass reads the directory (at most 4,096 iterations, sidecars
 * and locks included); `session.discover` has no such ceiling (see `discover_pages.ts`). Primary candidates are `<id>.jsonl` regular files; a `.jsonl` name whose stem
 * is not a session ID, or an unreadable/unsafe root, is `discovery_unavailable`. Each
 * candidate is validated like `session.open` (8 MiB / 10,000 lines per file, 64 MiB /
 * 100,000 lines per request): wrong or missing recorded workspace → excluded; malformed
 * or unsafe → omitted (`sessions_omitted_invalid`); no recorded cwd → `cwd_unverified`.
 * A lock file beside it makes it `busy`, except this child's attached session. Any bound
 * or the 2,000 ms cooperative deadline exceeded → `discovery_limit`; a vanished candidate
 * → `stale_revision`. Listing never acquires, renews or removes a lease.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { sha256Hex } from "../../protocol/canonical.ts";
import type { ErrorCode } from "../../protocol/errors.ts";
import {
  DISCOVERY_DIRECTORY_ENTRIES,
  DISCOVERY_SCAN_BYTES,
  DISCOVERY_SCAN_LINES,
  DISCOVERY_SCAN_MS,
  DISCOVERY_SESSION_BYTES,
  DISCOVERY_SESSION_LINES,
  DISCOVERY_TITLE_BYTES,
} from "../../protocol/limits.ts";
import { SESSION_ID_PATTERN } from "../../protocol/schemas/common.ts";
import { sanitize } from "./history_projection.ts";
import { readStoredSession, type StoredRecord } from "./session_store.ts";
import { utf8ByteLength } from "../../protocol/utf8.ts";

/** One listed session, as on the wire. */
export interface ListedSession {
  session_id: string;
  title: string | null;
  updated_at: string | null;
  eligibility: "available" | "cwd_unverified" | "busy";
  notices: string[];
}

/** The directory's inventory: candidate IDs (ascending) and lock names. */
export interface Inventory {
  ids: string[];
  locks: Set<string>;
  /** Fingerprint of the names. */
  names: string;
}

/** Failure of a scan step. */
export type ScanFailure = { ok: false; code: ErrorCode };

/** Title bound in characters (the existing 50-character title bound). */
const TITLE_CHARS = 50;

/** Read the inventory of `dir`. */
export async function readInventory(
  dir: string,
): Promise<{ ok: true; inventory: Inventory } | ScanFailure> {
  const ids: string[] = [];
  const locks = new Set<string>();
  const names: string[] = [];
  try {
    const info = await Deno.lstat(dir);
    if (!info.isDirectory) return { ok: false, code: "discovery_unavailable" };
    let count = 0;
    for await (const entry of Deno.readDir(dir)) {
      if (++count > DISCOVERY_DIRECTORY_ENTRIES) return { ok: false, code: "discovery_limit" };
      names.push(entry.name);
      const lock = /^(.+?)(?:\.(?:writer|active|append))?\.lock$/.exec(entry.name);
      if (lock !== null) locks.add(lock[1] as string);
      if (!entry.name.endsWith(".jsonl")) continue;
      const id = entry.name.slice(0, -6);
      if (!SESSION_ID_PATTERN.test(id)) return { ok: false, code: "discovery_unavailable" };
      ids.push(id);
    }
  } catch {
    return { ok: false, code: "discovery_unavailable" };
  }
  ids.sort(compareAscii);
  names.sort(compareAscii);
  return { ok: true, inventory: { ids, locks, names: names.join("/") } };
}

/** The per-request (for `session.discover`, per-page) read budget and deadline of one scan. */
export class ScanBudget {
  #bytes = 0;
  #lines = 0;
  readonly #deadline: number;
  readonly #now: () => number;
  readonly #signal: AbortSignal | undefined;

  /** A budget cancelled by `signal`; `now` is the clock (tests). */
  constructor(signal?: AbortSignal, options: { now?: () => number } = {}) {
    this.#signal = signal;
    this.#now = options.now ?? Date.now;
    this.#deadline = this.#now() + DISCOVERY_SCAN_MS;
  }

  /** Between files: the cancellation and deadline check. */
  check(): ErrorCode | null {
    if (this.#signal?.aborted) return "operation_cancelled";
    if (this.#now() > this.#deadline) return "discovery_limit";
    return null;
  }

  /** Bytes that may still be read. */
  get bytesLeft(): number {
    return Math.max(0, DISCOVERY_SCAN_BYTES - this.#bytes);
  }

  /** Lines that may still be read. */
  get linesLeft(): number {
    return Math.max(0, DISCOVERY_SCAN_LINES - this.#lines);
  }

  /** Charge one file's read work; false when over the request's bounds. */
  charge(bytes: number, lines: number): boolean {
    this.#bytes += bytes;
    this.#lines += lines;
    return this.#bytes <= DISCOVERY_SCAN_BYTES && this.#lines <= DISCOVERY_SCAN_LINES;
  }
}

/** What validating one candidate gave. */
export type Candidate =
  | { kind: "listed"; entry: ListedSession; fingerprint: string }
  | { kind: "excluded" | "invalid"; fingerprint: string };

/**
 * A candidate over a bound: `discovery_limit`, with `exhausted` when the scan budget (not
 * the per-file bound) was what ran out, so a `session.discover` page can end before it.
 */
export type CandidateFailure = ScanFailure & { exhausted?: boolean };

/**
 * Validate candidate `id` in `dir` against canonical `cwd`. A file is read within the
 * per-file bounds and what is left of the budget; a failed read charges the full
 * per-file budget. Fingerprints cover identity, content (also of omitted files) and lease.
 */
export async function validateCandidate(
  dir: string,
  id: string,
  context: {
    cwd: string;
    locks: ReadonlySet<string>;
    attachedId: string | null;
    budget: ScanBudget;
  },
): Promise<{ ok: true; candidate: Candidate } | CandidateFailure> {
  const path = `${dir}/${id}.jsonl`;
  let identity: string;
  try {
    const info = await Deno.lstat(path);
    identity = `${info.dev}:${info.ino}:${info.mode}:${info.size}:${info.isFile}`;
  } catch {
    return { ok: false, code: "stale_revision" };
  }
  const busy = context.locks.has(id) && id !== context.attachedId;
  const { budget } = context;
  const bounds = {
    maxBytes: Math.min(DISCOVERY_SESSION_BYTES, budget.bytesLeft),
    maxLines: Math.min(DISCOVERY_SESSION_LINES, budget.linesLeft),
  };
  const squeezed = bounds.maxBytes < DISCOVERY_SESSION_BYTES ||
    bounds.maxLines < DISCOVERY_SESSION_LINES;
  const limit = (exhausted: boolean): CandidateFailure => ({
    ok: false,
    code: "discovery_limit",
    exhausted,
  });
  const read = await readStoredSession(path, { sessionId: id, cwd: context.cwd }, bounds);
  const lease = busy ? "busy" : "free";
  if (!read.ok) {
    if (read.code === "history_limit") return limit(squeezed);
    if (read.code === "session_missing") return { ok: false, code: "stale_revision" };
    if (!budget.charge(DISCOVERY_SESSION_BYTES, DISCOVERY_SESSION_LINES)) return limit(true);
    const kind = read.code === "cwd_mismatch" ? "excluded" : "invalid";
    const content = await contentPrint(path);
    return {
      ok: true,
      candidate: { kind, fingerprint: `${id}|${identity}|${content}|${kind}|${lease}` },
    };
  }
  const stored = read.stored;
  if (!budget.charge(stored.bytes, stored.lines)) return limit(true);
  const unverified = stored.notices.includes("cwd_unverified");
  const entry: ListedSession = {
    session_id: id,
    title: titleOf(stored.records),
    updated_at: updatedAt(stored.records),
    eligibility: busy ? "busy" : unverified ? "cwd_unverified" : "available",
    notices: unverified ? ["cwd_unverified"] : [],
  };
  const fingerprint = `${id}|${identity}|${sha256Hex(stored.text)}|${lease}`;
  return { ok: true, candidate: { kind: "listed", entry, fingerprint } };
}

/** A digest of an omitted file's bytes (within the per-file bound), so edits are seen. */
async function contentPrint(path: string): Promise<string> {
  try {
    const info = await Deno.lstat(path);
    if (!info.isFile || info.size > DISCOVERY_SESSION_BYTES) return "unread";
    const bytes = await Deno.readFile(path);
    return createHash("sha256").update(bytes).digest("hex");
  } catch {
    return "unreadable";
  }
}

/** The latest stored title (title or compaction record), sanitized, or null. */
export function titleOf(records: readonly StoredRecord[]): string | null {
  let raw: string | null = null;
  for (const record of records) {
    if (
      (record.type === "title" || record.type === "compaction") && typeof record.title === "string"
    ) {
      raw = record.title;
    }
  }
  if (raw === null || utf8ByteLength(raw) > DISCOVERY_TITLE_BYTES) return null;
  const clean = sanitize(raw).replace(/[\n\t]/g, " ").trim();
  if (clean === "") return null;
  return Array.from(clean).slice(0, TITLE_CHARS).join("");
}

/** The greatest valid record timestamp as UTC RFC 3339, or null. */
export function updatedAt(records: readonly StoredRecord[]): string | null {
  let best = Number.NEGATIVE_INFINITY;
  for (const record of records) {
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(record.timestamp)) {
      continue;
    }
    const time = Date.parse(record.timestamp);
    if (Number.isFinite(time) && time > best) best = time;
  }
  return Number.isFinite(best) ? new Date(best).toISOString() : null;
}

/** Compare two ASCII strings by code unit. */
export function compareAscii(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
