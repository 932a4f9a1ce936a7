/**
 * `session.create` and `session.open`: each params and result type a type, its schema
 * typed as it.
 *
 * @module
 */

import { z } from "zod";
import {
  type EmptyParams,
  EmptyParamsSchema,
  NoticesSchema,
  SessionIdSchema,
  WireIdSchema,
} from "./common.ts";

/** `session.create` params: exactly `{}`. */
export type SessionCreateParams = EmptyParams;

/** `session.create` result: a lazy, not yet durable handle with no notices. */
export type SessionCreateResult = {
  session_id: string;
  durable: false;
  revision: string;
  notices: [];
};

/** `session.open` params: an exact session ID. */
export type SessionOpenParams = {
  session_id: string;
};

/** `session.open` result (notices such as `saved_selection_unavailable`, `cwd_unverified`). */
export type SessionOpenResult = {
  session_id: string;
  durable: boolean;
  revision: string;
  notices: string[];
};

function build() {
  return {
    SessionCreateResultSchema: z.strictObject({
      session_id: SessionIdSchema,
      durable: z.literal(false),
      revision: WireIdSchema,
      notices: z.tuple([]),
    }),
    SessionOpenParamsSchema: z.strictObject({ session_id: SessionIdSchema }),
    SessionOpenResultSchema: z.strictObject({
      session_id: SessionIdSchema,
      durable: z.boolean(),
      revision: WireIdSchema,
      notices: NoticesSchema,
    }),
  };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type SessionSchemas = ReturnType<typeof build>;
const built: SessionSchemas = build();

/** `session.create` params. */
export const SessionCreateParamsSchema: z.ZodType<SessionCreateParams> = EmptyParamsSchema;
/** `session.create` result. */
export const SessionCreateResultSchema: z.ZodType<SessionCreateResult> =
  built.SessionCreateResultSchema;
/** `session.open` params. */
export const SessionOpenParamsSchema: z.ZodType<SessionOpenParams> = built.SessionOpenParamsSchema;
/** `session.open` result. */
export const SessionOpenResultSchema: z.ZodType<SessionOpenResult> = built.SessionOpenResultSchema;
