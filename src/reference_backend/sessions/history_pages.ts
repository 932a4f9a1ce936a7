/**
 * `history.page`: one immutable bounded snapshot per attachment, paged by cursor.
 *
 * The revision is the attached file's revision (`r<lines>-<bytes>.<nonce>`, as
 * acknowledged by `session.open`, `session.create`, `input.persisted`, `run.finished` and
 * `selection.set`); the nonce is per attachment, so a reopen gives a new revision and the
 * old revision and cursors never match it. Every page, the first included, rereads the
 * file and compares the SHA-256 of its content with the digest the revision denotes
 * (captured at open, extended by each own append): a same-size edit is a mutation too. A
 * first page (null cursor) builds the projection (8 MiB serialized entries, 10,000 parts,
 * else `history_limit`). Any detected mutation invalidates the revision for this
 * attachment stickily (`stale_revision`); reopening gives a fresh attachment. Cursors are
 * `h<generation>.<page>.<nonce>`: bound to one snapshot of one attachment.
 *
 * @module
 */

import type { ErrorCode } from "../../protocol/errors.ts";
import {
  HISTORY_PAGE_BYTES,
  HISTORY_PAGE_ENTRIES,
  HISTORY_SNAPSHOT_BYTES,
  HISTORY_SNAPSHOT_PARTS,
} from "../../protocol/limits.ts";
import { sha256Hex } from "../../protocol/canonical.ts";
import { type HistoryEntry, projectHistory } from "./history_projection.ts";
import { CURSOR_PLACEHOLDER, jsonBytes, pageLength } from "../paging.ts";
import { readStoredSession } from "./session_store.ts";
import type { Attachment } from "./sessions.ts";

/** A `history.page` result. */
export interface HistoryPage {
  session_id: string;
  revision: string;
  entries: HistoryEntry[];
  next_cursor: string | null;
  complete: boolean;
}

interface Snapshot {
  revision: string;
  generation: number;
  /** Start index of each page; page i covers starts[i]..starts[i+1]. */
  starts: number[];
  entries: HistoryEntry[];
  complete: boolean;
}

interface State {
  dead: Set<string>;
  snapshot: Snapshot | null;
  generation: number;
}

const states = new WeakMap<Attachment, State>();

/** Answer one `history.page` request for the (already matched) `attachment`. */
export async function historyPage(
  attachment: Attachment,
  request: { revision: string; cursor: string | null; cwd: string; cards: boolean },
): Promise<{ ok: true; page: HistoryPage } | { ok: false; code: ErrorCode }> {
  let state = states.get(attachment);
  if (state === undefined) {
    state = { dead: new Set(), snapshot: null, generation: 0 };
    states.set(attachment, state);
  }
  const { revision, cursor } = request;
  const stale = { ok: false as const, code: "stale_revision" as const };
  if (state.dead.has(revision) || revision !== attachment.file.revision) return stale;
  if (!attachment.durable) {
    if (cursor !== null) return stale;
    const page = { session_id: attachment.id, revision, entries: [], next_cursor: null };
    return { ok: true, page: { ...page, complete: true } };
  }
  const read = await readStoredSession(attachment.file.path, {
    sessionId: attachment.id,
    cwd: request.cwd,
  });
  if (!read.ok && read.code === "history_limit") return read;
  const kill = () => {
    state.dead.add(revision);
    state.snapshot = null;
    return stale;
  };
  if (!read.ok) return kill();
  const stored = read.stored;
  // The file must still be exactly the content this revision denotes, on every page.
  if (sha256Hex(stored.text) !== attachment.file.digest) return kill();
  let snapshot = state.snapshot;
  let index = 0;
  if (cursor === null) {
    const built = buildSnapshot(attachment.id, stored.records, {
      revision,
      cards: request.cards,
      generation: ++state.generation,
    });
    if (built === null) return { ok: false, code: "history_limit" };
    snapshot = built;
    state.snapshot = snapshot;
  } else {
    if (snapshot === null || snapshot.revision !== revision) return stale;
    const match = /^h(\d+)\.(\d+)\.([0-9a-f]+)$/.exec(cursor);
    if (match === null || Number(match[1]) !== snapshot.generation) return stale;
    if (match[3] !== attachment.file.nonce) return stale;
    index = Number(match[2]);
    if (index < 1 || index >= snapshot.starts.length - 1) return stale;
  }
  const from = snapshot.starts[index] as number;
  const to = snapshot.starts[index + 1] as number;
  const last = index + 1 === snapshot.starts.length - 1;
  return {
    ok: true,
    page: {
      session_id: attachment.id,
      revision,
      entries: snapshot.entries.slice(from, to),
      next_cursor: last ? null : `h${snapshot.generation}.${index + 1}.${attachment.file.nonce}`,
      complete: last && snapshot.complete,
    },
  };
}

function buildSnapshot(
  sessionId: string,
  records: Parameters<typeof projectHistory>[0],
  meta: { revision: string; cards: boolean; generation: number },
): Snapshot | null {
  const projection = projectHistory(records, { cards: meta.cards });
  const entries = projection.entries;
  if (entries.length > HISTORY_SNAPSHOT_PARTS) return null;
  const sizes = entries.map(jsonBytes);
  let total = 0;
  for (const size of sizes) total += size;
  if (total > HISTORY_SNAPSHOT_BYTES) return null;
  const wrapperBytes = jsonBytes({
    session_id: sessionId,
    revision: meta.revision,
    entries: [],
    next_cursor: CURSOR_PLACEHOLDER,
    complete: false,
  });
  const bounds = { maxItems: HISTORY_PAGE_ENTRIES, maxBytes: HISTORY_PAGE_BYTES, wrapperBytes };
  const starts = [0];
  let at = 0;
  while (at < entries.length) {
    const length = pageLength(sizes, at, bounds);
    if (length === 0) return null;
    at += length;
    starts.push(at);
  }
  if (starts.length === 1) starts.push(0);
  return {
    revision: meta.revision,
    generation: meta.generation,
    starts,
    entries,
    complete: projection.complete,
  };
}
