/**
 * `model.catalog`: one sticky catalog snapshot per child, paged by cursor. Continuations
 * (and `selection.set`) rescan and compare the fingerprint; a mismatch, an unreadable or
 * over-limit rescan, a fresh request or `model.refresh` invalidates the old revision
 * stickily (`stale_catalog`).
 *
 * @module
 */

import type { ErrorCode } from "../../protocol/errors.ts";
import { CATALOG_PAGE_BYTES } from "../../protocol/limits.ts";
import {
  type CatalogContext,
  type CatalogScan,
  type Choice,
  scanCatalog,
  withinSnapshot,
} from "./catalog_scan.ts";
import { CURSOR_PLACEHOLDER, jsonBytes, pageLength, randomTag } from "../paging.ts";

/** A `model.catalog` result. */
export interface CatalogPage {
  revision: string;
  choices: Choice[];
  next_cursor: string | null;
  complete: boolean;
  notices: string[];
  source: "cache_only";
}

interface Snapshot {
  revision: string;
  scan: CatalogScan;
  offsets: Set<number>;
}

type Failure = { ok: false; code: ErrorCode };

/** The child's catalog snapshot. */
export class CatalogState {
  #snapshot: Snapshot | null = null;
  readonly #dead = new Set<string>();
  #generation = 0;

  /** Answer one `model.catalog` request. */
  async page(
    params: { revision: string | null; cursor: string | null; limit: number },
    context: CatalogContext,
  ): Promise<{ ok: true; page: CatalogPage; scan: CatalogScan } | Failure> {
    if (params.revision === null || params.cursor === null) {
      this.invalidate();
      const scanned = await scanCatalog(context);
      if (!scanned.ok) return scanned;
      if (!withinSnapshot(scanned.scan.choices)) return { ok: false, code: "catalog_limit" };
      const revision = `k${++this.#generation}-${randomTag()}`;
      this.#snapshot = { revision, scan: scanned.scan, offsets: new Set([0]) };
      return this.#page(this.#snapshot, 0, params.limit);
    }
    const match = /^(.+)\.o(\d+)$/.exec(params.cursor);
    const offset = Number(match?.[2]);
    const current = this.#snapshot;
    if (current === null || current.revision !== params.revision) {
      return { ok: false, code: "stale_catalog" };
    }
    if (match?.[1] !== current.revision || !current.offsets.has(offset)) {
      return { ok: false, code: "stale_catalog" };
    }
    const checked = await this.revalidate(params.revision, context);
    if (!checked.ok) return checked;
    return this.#page(current, offset, params.limit);
  }

  /**
   * Rescan and compare with the live snapshot `revision`: the scan, or `stale_catalog`
   * (sticky) when it is not the live revision or anything changed.
   */
  async revalidate(
    revision: string,
    context: CatalogContext,
  ): Promise<{ ok: true; scan: CatalogScan } | Failure> {
    const current = this.#snapshot;
    if (this.#dead.has(revision) || current === null || current.revision !== revision) {
      return { ok: false, code: "stale_catalog" };
    }
    const scanned = await scanCatalog(context);
    if (!scanned.ok && scanned.code === "operation_cancelled") return scanned;
    if (!scanned.ok || scanned.scan.fingerprint !== current.scan.fingerprint) {
      this.invalidate();
      return { ok: false, code: "stale_catalog" };
    }
    return scanned;
  }

  /** Invalidate the live snapshot (fresh request, refresh). */
  invalidate(): void {
    if (this.#snapshot !== null) this.#dead.add(this.#snapshot.revision);
    this.#snapshot = null;
  }

  #page(
    snapshot: Snapshot,
    offset: number,
    limit: number,
  ): { ok: true; page: CatalogPage; scan: CatalogScan } | Failure {
    const { choices, notices } = snapshot.scan;
    const wrapperBytes = jsonBytes({
      revision: snapshot.revision,
      choices: [],
      next_cursor: CURSOR_PLACEHOLDER,
      complete: false,
      notices,
      source: "cache_only",
    });
    const sizes = choices.map(jsonBytes);
    const count = pageLength(sizes, offset, {
      maxItems: limit,
      maxBytes: CATALOG_PAGE_BYTES,
      wrapperBytes,
    });
    if (count === 0 && offset < choices.length) return { ok: false, code: "catalog_limit" };
    const end = offset + count;
    const more = end < choices.length;
    if (more) snapshot.offsets.add(end);
    return {
      ok: true,
      scan: snapshot.scan,
      page: {
        revision: snapshot.revision,
        choices: choices.slice(offset, end),
        next_cursor: more ? `${snapshot.revision}.o${end}` : null,
        complete: !more,
        notices,
        source: "cache_only",
      },
    };
  }
}
