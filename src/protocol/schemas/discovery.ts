/**
 * `session.list` schemas.
 *
 * @module
 */

import { z } from "zod";
import { DISCOVERY_PAGE_ENTRIES, DISCOVERY_TITLE_BYTES } from "../limits.ts";
import { boundedString, NoticesSchema, SessionIdSchema, WireIdSchema } from "./common.ts";
import { SnapshotPageParamsSchema } from "./paging.ts";

/** `session.list` params. */
export const SessionListParamsSchema: z.ZodObject<
  {
    revision: z.ZodExactOptional<z.ZodNullable<z.ZodString>>;
    cursor: z.ZodExactOptional<z.ZodNullable<z.ZodString>>;
    limit: z.ZodExactOptional<z.ZodInt>;
  },
  z.core.$strict
> = SnapshotPageParamsSchema;
/** `session.list` params. */
export type SessionListParams = z.infer<typeof SessionListParamsSchema>;

/** A session's eligibility in a listing. */
export const EligibilitySchema: z.ZodEnum<
  { available: "available"; busy: "busy"; cwd_unverified: "cwd_unverified" }
> = z.enum(["available", "cwd_unverified", "busy"]);
/** A session's eligibility. */
export type Eligibility = z.infer<typeof EligibilitySchema>;

/** One listed session. `updated_at` is UTC RFC 3339. */
export const SessionListEntrySchema: z.ZodObject<
  {
    session_id: z.ZodString;
    title: z.ZodNullable<z.ZodString>;
    updated_at: z.ZodNullable<z.ZodISODateTime>;
    eligibility: typeof EligibilitySchema;
    notices: z.ZodArray<z.ZodString>;
  },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  title: boundedString(DISCOVERY_TITLE_BYTES).nullable(),
  updated_at: z.iso.datetime().nullable(),
  eligibility: EligibilitySchema,
  notices: NoticesSchema,
});
/** One listed session. */
export type SessionListEntry = z.infer<typeof SessionListEntrySchema>;

/** Listed sessions: at most one page, strictly ascending ASCII session ID. */
export const SessionListEntriesSchema: z.ZodArray<typeof SessionListEntrySchema> = z.array(
  SessionListEntrySchema,
)
  .max(DISCOVERY_PAGE_ENTRIES)
  .check((ctx) => {
    for (let i = 1; i < ctx.value.length; i++) {
      const prev = ctx.value[i - 1] as SessionListEntry;
      const next = ctx.value[i] as SessionListEntry;
      if (!(prev.session_id < next.session_id)) {
        ctx.issues.push({
          code: "custom",
          message: "Sessions must be in strictly ascending session ID order",
          input: ctx.value,
          path: [i, "session_id"],
        });
        return;
      }
    }
  });

/** `session.list` result. */
export const SessionListResultSchema: z.ZodObject<
  {
    revision: z.ZodString;
    sessions: typeof SessionListEntriesSchema;
    next_cursor: z.ZodNullable<z.ZodString>;
    complete: z.ZodBoolean;
    notices: z.ZodArray<z.ZodString>;
  },
  z.core.$strict
> = z.strictObject({
  revision: WireIdSchema,
  sessions: SessionListEntriesSchema,
  next_cursor: WireIdSchema.nullable(),
  complete: z.boolean(),
  notices: NoticesSchema,
});
/** `session.list` result. */
export type SessionListResult = z.infer<typeof SessionListResultSchema>;
