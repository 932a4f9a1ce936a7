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
export const SnapshotPageParamsSchema: z.ZodObject<
  {
    revision: z.ZodExactOptional<z.ZodNullable<z.ZodString>>;
    cursor: z.ZodExactOptional<z.ZodNullable<z.ZodString>>;
    limit: z.ZodExactOptional<z.ZodInt>;
  },
  z.core.$strict
> = z.strictObject({
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
});
/** Snapshot paging params. */
export type SnapshotPageParams = z.infer<typeof SnapshotPageParamsSchema>;
