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
export const SessionListParamsSchema = SnapshotPageParamsSchema;
/** `session.list` params. */
export type SessionListParams = z.infer<typeof SessionListParamsSchema>;

/** A session's eligibility in a listing. */
export const EligibilitySchema = z.enum(["available", "cwd_unverified", "busy"]);
/** A session's eligibility. */
export type Eligibility = z.infer<typeof EligibilitySchema>;

/** One listed session. `updated_at` is UTC RFC 3339. */
export const SessionListEntrySchema = z.strictObject({
  session_id: SessionIdSchema,
  title: boundedString(DISCOVERY_TITLE_BYTES).nullable(),
  updated_at: z.iso.datetime().nullable(),
  eligibility: EligibilitySchema,
  notices: NoticesSchema,
});
/** One listed session. */
export type SessionListEntry = z.infer<typeof SessionListEntrySchema>;

/** Listed sessions: at most one page, strictly ascending ASCII session ID. */
export const SessionListEntriesSchema = z.array(SessionListEntrySchema)
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
export const SessionListResultSchema = z.strictObject({
  revision: WireIdSchema,
  sessions: SessionListEntriesSchema,
  next_cursor: WireIdSchema.nullable(),
  complete: z.boolean(),
  notices: NoticesSchema,
});
/** `session.list` result. */
export type SessionListResult = z.infer<typeof SessionListResultSchema>;
