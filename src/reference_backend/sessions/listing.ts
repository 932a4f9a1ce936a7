/**
 * `session.list`: one sticky snapshot per child over {@link readInventory} and
 * {@link validateCandidate} (`session.discover` is in `discover_pages.ts`).
 *
 * A fresh listing scans everything (at most 256 candidates), checks a second inventory
 * pass against the first and keeps the entries with a fingerprint of names, file
 * identities, contents, lease presence and the attachment. A continuation rescans and
 * compares: any difference invalidates the snapshot stickily (`stale_revision`).
 *
 * @module
 */

import { sha256Hex } from "../../protocol/canonical.ts";
import type { ErrorCode } from "../../protocol/errors.ts";
import { DISCOVERY_PAGE_BYTES, DISCOVERY_SESSIONS } from "../../protocol/limits.ts";
import { type ListedSession, readInventory, ScanBudget, validateCandidate } from "./inventory.ts";
import { CURSOR_PLACEHOLDER, jsonBytes, pageLength, randomTag } from "../paging.ts";

/** Where and for whom to scan. */
export interface ScanContext {
  /** `$MC_HOME/sessions`. */
  dir: string;
  /** Canonical cwd of the child. */
  cwd: string;
  /** This child's attached session, if any. */
  attachedId: string | null;
  /** Cancellation of the operation. */
  signal?: AbortSignal;
}

/** A `session.list` result. */
export interface ListPage {
  revision: string;
  sessions: ListedSession[];
  next_cursor: string | null;
  complete: boolean;
  notices: string[];
}

type Failure = { ok: false; code: ErrorCode };

interface FullScan {
  entries: ListedSession[];
  notices: string[];
  fingerprint: string;
}

interface Snapshot extends FullScan {
  revision: string;
  offsets: Set<number>;
}

/** The child's discovery snapshot. */
export class SessionListing {
  #snapshot: Snapshot | null = null;
  readonly #dead = new Set<string>();
  #generation = 0;

  /** Answer one `session.list` request. */
  async list(
    params: { revision: string | null; cursor: string | null; limit: number },
    context: ScanContext,
  ): Promise<{ ok: true; page: ListPage } | Failure> {
    if (params.revision === null || params.cursor === null) {
      const scan = await fullScan(context);
      if (!scan.ok) return scan;
      const revision = `d${++this.#generation}-${randomTag()}`;
      if (this.#snapshot !== null) this.#dead.add(this.#snapshot.revision);
      this.#snapshot = { ...scan.scan, revision, offsets: new Set([0]) };
      return this.#page(this.#snapshot, 0, params.limit);
    }
    const snapshot = this.#snapshot;
    const stale = { ok: false as const, code: "stale_revision" as const };
    if (this.#dead.has(params.revision) || snapshot === null) return stale;
    if (snapshot.revision !== params.revision) return stale;
    const match = /^(.+)\.o(\d+)$/.exec(params.cursor);
    const offset = Number(match?.[2]);
    if (match?.[1] !== snapshot.revision || !snapshot.offsets.has(offset)) return stale;
    const scan = await fullScan(context);
    if (!scan.ok && scan.code === "operation_cancelled") return scan;
    if (!scan.ok || scan.scan.fingerprint !== snapshot.fingerprint) {
      this.#dead.add(snapshot.revision);
      this.#snapshot = null;
      return stale;
    }
    return this.#page(snapshot, offset, params.limit);
  }

  #page(
    snapshot: Snapshot,
    offset: number,
    limit: number,
  ): { ok: true; page: ListPage } | Failure {
    const wrapperBytes = jsonBytes({
      revision: snapshot.revision,
      sessions: [],
      next_cursor: CURSOR_PLACEHOLDER,
      complete: false,
      notices: snapshot.notices,
    });
    const sizes = snapshot.entries.map(jsonBytes);
    const count = pageLength(sizes, offset, {
      maxItems: limit,
      maxBytes: DISCOVERY_PAGE_BYTES,
      wrapperBytes,
    });
    if (count === 0 && offset < snapshot.entries.length) {
      return { ok: false, code: "discovery_limit" };
    }
    const end = offset + count;
    const more = end < snapshot.entries.length;
    if (more) snapshot.offsets.add(end);
    return {
      ok: true,
      page: {
        revision: snapshot.revision,
        sessions: snapshot.entries.slice(offset, end),
        next_cursor: more ? `${snapshot.revision}.o${end}` : null,
        complete: !more,
        notices: snapshot.notices,
      },
    };
  }
}

async function fullScan(context: ScanContext): Promise<{ ok: true; scan: FullScan } | Failure> {
  const first = await readInventory(context.dir);
  if (!first.ok) return first;
  const { ids, locks } = first.inventory;
  if (ids.length > DISCOVERY_SESSIONS) return { ok: false, code: "discovery_limit" };
  const budget = new ScanBudget(context.signal);
  const entries: ListedSession[] = [];
  const prints: string[] = [first.inventory.names, `attached:${context.attachedId ?? ""}`];
  let invalid = false;
  for (const id of ids) {
    const stop = budget.check();
    if (stop !== null) return { ok: false, code: stop };
    const checked = await validateCandidate(context.dir, id, {
      cwd: context.cwd,
      locks,
      attachedId: context.attachedId,
      budget,
    });
    if (!checked.ok) return checked;
    const candidate = checked.candidate;
    prints.push(candidate.fingerprint);
    if (candidate.kind === "listed") entries.push(candidate.entry);
    else if (candidate.kind === "invalid") invalid = true;
  }
  const second = await readInventory(context.dir);
  if (!second.ok) return second;
  if (second.inventory.names !== first.inventory.names) {
    return { ok: false, code: "stale_revision" };
  }
  const stop = budget.check();
  if (stop !== null) return { ok: false, code: stop };
  return {
    ok: true,
    scan: {
      entries,
      notices: invalid ? ["sessions_omitted_invalid"] : [],
      fingerprint: sha256Hex(prints.join("\n")),
    },
  };
}
