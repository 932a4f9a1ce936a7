/**
 * `session.discover`: incremental, provisional pages with no global candidate ceiling.
 *
 * Each page is bounded work of its own: one directory pass that keeps only the 256
 * (`discovery_sessions`) smallest session IDs after the cursor (memory bounded whatever
 * the directory size; the pass checks the 2,000 ms deadline and cancellation as it goes),
 * then validation of those candidates in ascending order with the `session.list` rules
 * within one page's read budget (64 MiB / 100,000 lines, 2,000 ms). The page ends with a
 * cursor (the last session ID examined) when it is full (limit or 32,768 bytes), when its
 * candidates are used up, or when its budget runs out after at least one candidate was
 * examined. A single entry or file over its own bound, or a budget exhausted before the
 * first candidate → `discovery_limit`, never a partial page. Lease presence is read from
 * the lock names beside each candidate; nothing is acquired or removed.
 *
 * @module
 */

import type { ErrorCode } from "../../protocol/errors.ts";
import { DISCOVERY_PAGE_BYTES, DISCOVERY_SESSIONS } from "../../protocol/limits.ts";
import { SESSION_ID_PATTERN } from "../../protocol/schemas/common.ts";
import { compareAscii, type ListedSession, ScanBudget, validateCandidate } from "./inventory.ts";
import type { ScanContext } from "./listing.ts";
import { CURSOR_PLACEHOLDER, jsonBytes } from "../paging.ts";

/** A `session.discover` result. */
export interface DiscoverPage {
  sessions: ListedSession[];
  next_cursor: string | null;
  complete: boolean;
  provisional: true;
  notices: [];
}

type Failure = { ok: false; code: ErrorCode };

/** Directory entries between deadline/cancellation checks of the directory pass. */
const CHECK_EVERY = 256;

/** Answer one `session.discover` request: scan forward from the cursor. */
export async function discoverPage(
  params: { cursor: string | null; limit: number },
  context: ScanContext,
): Promise<{ ok: true; page: DiscoverPage } | Failure> {
  const budget = new ScanBudget(context.signal);
  const found = await candidatesAfter(context.dir, params.cursor, budget);
  if (!found.ok) return found;
  const { ids, more } = found;
  const sessions: ListedSession[] = [];
  const wrapper = { sessions: [], next_cursor: CURSOR_PLACEHOLDER, complete: false };
  let bytes = jsonBytes({ ...wrapper, provisional: true, notices: [] });
  let last: string | null = null;
  let examined = 0;
  let stopped = false;
  for (const id of ids) {
    if (sessions.length >= params.limit) {
      stopped = true;
      break;
    }
    const stop = budget.check();
    if (stop === "discovery_limit" && examined > 0) {
      stopped = true;
      break;
    }
    if (stop !== null) return { ok: false, code: stop };
    const locks = (await leasePresent(context.dir, id)) ? new Set([id]) : new Set<string>();
    const checked = await validateCandidate(context.dir, id, {
      cwd: context.cwd,
      locks,
      attachedId: context.attachedId,
      budget,
    });
    if (!checked.ok) {
      if (checked.exhausted === true && examined > 0) {
        stopped = true;
        break;
      }
      // A candidate that vanished meanwhile is simply missed: completeness is provisional.
      if (checked.code !== "stale_revision") return { ok: false, code: checked.code };
    } else if (checked.candidate.kind === "listed") {
      const size = jsonBytes(checked.candidate.entry) + (sessions.length === 0 ? 0 : 1);
      if (bytes + size > DISCOVERY_PAGE_BYTES) {
        if (sessions.length === 0) return { ok: false, code: "discovery_limit" };
        stopped = true;
        break;
      }
      bytes += size;
      sessions.push(checked.candidate.entry);
    }
    last = id;
    examined++;
  }
  const complete = !stopped && !more;
  return {
    ok: true,
    page: {
      sessions,
      next_cursor: complete ? null : last,
      complete,
      provisional: true,
      notices: [],
    },
  };
}

/**
 * One pass over `dir`: the (at most 256) smallest session IDs after `after`, ascending, and
 * whether more exist beyond them. Every `.jsonl` name is checked (`discovery_unavailable`
 * for one that is not a session ID); the pass has no entry ceiling, only the deadline.
 */
async function candidatesAfter(
  dir: string,
  after: string | null,
  budget: ScanBudget,
): Promise<{ ok: true; ids: string[]; more: boolean } | Failure> {
  let ids: string[] = [];
  let ceiling = null as string | null;
  let more = false;
  const trim = () => {
    ids.sort(compareAscii);
    if (ids.length > DISCOVERY_SESSIONS) {
      ceiling = ids[DISCOVERY_SESSIONS] as string;
      ids = ids.slice(0, DISCOVERY_SESSIONS);
      more = true;
    }
  };
  try {
    const info = await Deno.lstat(dir);
    if (!info.isDirectory) return { ok: false, code: "discovery_unavailable" };
    let count = 0;
    for await (const entry of Deno.readDir(dir)) {
      if (++count % CHECK_EVERY === 0) {
        const stop = budget.check();
        if (stop !== null) return { ok: false, code: stop };
      }
      if (!entry.name.endsWith(".jsonl")) continue;
      const id = entry.name.slice(0, -6);
      if (!SESSION_ID_PATTERN.test(id)) return { ok: false, code: "discovery_unavailable" };
      if (after !== null && id <= after) continue;
      if (ceiling !== null && id >= ceiling) {
        more = true;
        continue;
      }
      ids.push(id);
      if (ids.length >= 2 * DISCOVERY_SESSIONS) trim();
    }
  } catch {
    return { ok: false, code: "discovery_unavailable" };
  }
  trim();
  const stop = budget.check();
  if (stop !== null) return { ok: false, code: stop };
  return { ok: true, ids, more };
}

const LEASE_SUFFIXES = [".lock", ".writer.lock", ".active.lock", ".append.lock"];

/** Whether a lease file of `id` is present beside it (advisory; never touched). */
async function leasePresent(dir: string, id: string): Promise<boolean> {
  for (const suffix of LEASE_SUFFIXES) {
    try {
      await Deno.lstat(`${dir}/${id}${suffix}`);
      return true;
    } catch {
      // absent
    }
  }
  return false;
}
