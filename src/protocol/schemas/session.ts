/**
 * `session.create` and `session.open` schemas.
 *
 * @module
 */

import { z } from "zod";
import { EmptyParamsSchema, NoticesSchema, SessionIdSchema, WireIdSchema } from "./common.ts";

/** `session.create` params: exactly `{}`. */
export const SessionCreateParamsSchema: typeof EmptyParamsSchema = EmptyParamsSchema;
/** `session.create` params. */
export type SessionCreateParams = z.infer<typeof SessionCreateParamsSchema>;

/** `session.create` result: a lazy, not yet durable handle with no notices. */
export const SessionCreateResultSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    durable: z.ZodLiteral<false>;
    revision: z.ZodString;
    notices: z.ZodTuple<[], null>;
  },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  durable: z.literal(false),
  revision: WireIdSchema,
  notices: z.tuple([]),
});
/** `session.create` result. */
export type SessionCreateResult = z.infer<typeof SessionCreateResultSchema>;

/** `session.open` params: an exact session ID. */
export const SessionOpenParamsSchema: z.ZodObject<{ session_id: z.ZodString }, z.core.$strict> = z
  .strictObject({ session_id: SessionIdSchema });
/** `session.open` params. */
export type SessionOpenParams = z.infer<typeof SessionOpenParamsSchema>;

/** `session.open` result (notices such as `saved_selection_unavailable`, `cwd_unverified`). */
export const SessionOpenResultSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    durable: z.ZodBoolean;
    revision: z.ZodString;
    notices: z.ZodArray<z.ZodString>;
  },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  durable: z.boolean(),
  revision: WireIdSchema,
  notices: NoticesSchema,
});
/** `session.open` result. */
export type SessionOpenResult = z.infer<typeof SessionOpenResultSchema>;
