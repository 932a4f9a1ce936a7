/**
 * Paging helpers: follow `next_cursor` to the end of a paged operation as an async
 * iterable, turning `stale_revision` / `stale_catalog` into {@link StaleSnapshot}.
 *
 * @module
 */

import { ProtocolError } from "../protocol/errors.ts";
import { StaleSnapshot } from "./errors.ts";

/** Most pages a helper follows before deciding the backend never ends (a protocol bug). */
const MAX_PAGES = 100_000;

/** A page with a continuation cursor. */
interface Page {
  next_cursor: string | null;
}

function staleOr(what: string, error: unknown): unknown {
  if (
    error instanceof ProtocolError &&
    (error.code === "stale_revision" || error.code === "stale_catalog")
  ) {
    return new StaleSnapshot(what, error.code, { cause: error });
  }
  return error;
}

/** Pages of `fetch(cursor)` from a null cursor until `next_cursor` is null. */
export async function* followCursor<P extends Page>(
  what: string,
  fetch: (cursor: string | null) => Promise<P>,
): AsyncGenerator<P> {
  let cursor: string | null = null;
  for (let i = 0; i < MAX_PAGES; i++) {
    let page: P;
    try {
      page = await fetch(cursor);
    } catch (error) {
      throw staleOr(what, error);
    }
    yield page;
    if (page.next_cursor === null) return;
    cursor = page.next_cursor;
  }
  throw new RangeError(`Paging did not end after ${MAX_PAGES} pages: ${what}`);
}

/** Pages of one snapshot: a fresh first page, then continuations with its revision. */
export async function* followSnapshot<P extends Page & { revision: string }>(
  what: string,
  fetch: (revision: string | null, cursor: string | null) => Promise<P>,
): AsyncGenerator<P> {
  let revision: string | null = null;
  let cursor: string | null = null;
  for (let i = 0; i < MAX_PAGES; i++) {
    let page: P;
    try {
      page = await fetch(revision, cursor);
    } catch (error) {
      throw staleOr(what, error);
    }
    yield page;
    if (page.next_cursor === null) return;
    revision = page.revision;
    cursor = page.next_cursor;
  }
  throw new RangeError(`Paging did not end after ${MAX_PAGES} pages: ${what}`);
}
