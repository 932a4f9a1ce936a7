/**
 * `session.list`: params and result object types, their schemas typed as them.
 *
 * @module
 */

import { z } from "zod";
import { DISCOVERY_PAGE_ENTRIES, DISCOVERY_TITLE_BYTES } from "../limits.ts";
import { boundedString, NoticesSchema, SessionIdSchema, WireIdSchema } from "./common.ts";
import { type SnapshotPageParams, SnapshotPageParamsSchema } from "./paging.ts";

/** `session.list` params. */
export const SessionListParamsSchema: z.ZodType<SessionListParams> = SnapshotPageParamsSchema;
/** `session.list` params. */
export type SessionListParams = SnapshotPageParams;

/** A session's eligibility in a listing. */
export type Eligibility = "available" | "cwd_unverified" | "busy";

/** One listed session. */
export type SessionListEntry = {
  session_id: string;
  title: string | null;
  /** UTC RFC 3339. */
  updated_at: string | null;
  eligibility: Eligibility;
  notices: string[];
};

/** `session.list` result: at most one page, strictly ascending ASCII session ID. */
export type SessionListResult = {
  revision: string;
  sessions: SessionListEntry[];
  next_cursor: string | null;
  complete: boolean;
  notices: string[];
};

function build() {
  const EligibilitySchema = z.enum(["available", "cwd_unverified", "busy"]);
  const SessionListEntrySchema = z.strictObject({
    session_id: SessionIdSchema,
    title: boundedString(DISCOVERY_TITLE_BYTES).nullable(),
    updated_at: z.iso.datetime().nullable(),
    eligibility: EligibilitySchema,
    notices: NoticesSchema,
  });
  const SessionListEntriesSchema = z.array(SessionListEntrySchema)
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
  const SessionListResultSchema = z.strictObject({
    revision: WireIdSchema,
    sessions: SessionListEntriesSchema,
    next_cursor: WireIdSchema.nullable(),
    complete: z.boolean(),
    notices: NoticesSchema,
  });
  return {
    EligibilitySchema,
    SessionListEntrySchema,
    SessionListEntriesSchema,
    SessionListResultSchema,
  };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type DiscoverySchemas = ReturnType<typeof build>;
const built: DiscoverySchemas = build();

/** A session's eligibility. */
export const EligibilitySchema: z.ZodType<Eligibility> = built.EligibilitySchema;
/** One listed session. */
export const SessionListEntrySchema: z.ZodType<SessionListEntry> = built.SessionListEntrySchema;
/** Listed sessions: at most one page, strictly ascending ASCII session ID. */
export const SessionListEntriesSchema: z.ZodType<SessionListEntry[]> =
  built.SessionListEntriesSchema;
/** `session.list` result. */
export const SessionListResultSchema: z.ZodType<SessionListResult> = built.SessionListResultSchema;
