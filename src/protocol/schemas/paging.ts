/**
 * Paging params shared by `session.list` and `model.catalog`.
 *
 * @module
 */

import { z } from "zod";
import { WireIdSchema } from "./common.ts";

/** Page size: 1–100, default 100. */
export const PageLimitSchema: z.ZodInt = z.int().min(1).max(100);

/**
 * `{ revision, cursor, limit }`, all optional (defaults null/null/100);
 * revision and cursor both null/omitted (fresh) or both non-null (continuation).
 */
export type SnapshotPageParams = {
  revision?: string | null;
  cursor?: string | null;
  /** 1–100, default 100. */
  limit?: number;
};

function build() {
  return {
    SnapshotPageParamsSchema: z.strictObject({
      revision: z.exactOptional(WireIdSchema.nullable()),
      cursor: z.exactOptional(WireIdSchema.nullable()),
      limit: z.exactOptional(PageLimitSchema),
    }).check((ctx) => {
      const fresh = (ctx.value.revision ?? null) === null;
      if (fresh !== ((ctx.value.cursor ?? null) === null)) {
        ctx.issues.push({
          code: "custom",
          message: "revision and cursor must both be null or both be set",
          input: ctx.value,
          path: ["cursor"],
        });
      }
    }),
  };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type PagingSchemas = ReturnType<typeof build>;
const built: PagingSchemas = build();

/** Snapshot paging params. */
export const SnapshotPageParamsSchema: z.ZodType<SnapshotPageParams> =
  built.SnapshotPageParamsSchema;
