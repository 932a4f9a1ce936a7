/**
 * `turn.start`, `turn.cancel` and `approval.answer` schemas.
 *
 * @module
 */

import { z } from "zod";
import { PROMPT_BYTES } from "../limits.ts";
import { boundedString, SessionIdSchema, WireIdSchema } from "./common.ts";

const ALL_WHITESPACE = /^\p{White_Space}*$/u;

/** A prompt: 1–16384 UTF-8 bytes, not only whitespace. */
export const PromptSchema: z.ZodString = boundedString(PROMPT_BYTES, { minBytes: 1 }).refine(
  (text) => !ALL_WHITESPACE.test(text),
  { message: "Prompt must contain a non-whitespace character" },
);

/** `turn.start` params. */
export const TurnStartParamsSchema: z.ZodObject<
  { session_id: z.ZodString; prompt: z.ZodString },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  prompt: PromptSchema,
});
/** `turn.start` params. */
export type TurnStartParams = z.infer<typeof TurnStartParamsSchema>;

/** `turn.start` result: admission only. */
export const TurnStartResultSchema: z.ZodObject<
  { run_id: z.ZodString; accepted: z.ZodLiteral<true> },
  z.core.$strict
> = z.strictObject({
  run_id: WireIdSchema,
  accepted: z.literal(true),
});
/** `turn.start` result. */
export type TurnStartResult = z.infer<typeof TurnStartResultSchema>;

/** `turn.cancel` params. */
export const TurnCancelParamsSchema: z.ZodObject<
  { session_id: z.ZodString; run_id: z.ZodString },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  run_id: WireIdSchema,
});
/** `turn.cancel` params. */
export type TurnCancelParams = z.infer<typeof TurnCancelParamsSchema>;

/** `turn.cancel` (and `operation.cancel`) result. */
export const CancellationRequestedSchema: z.ZodObject<
  { cancellation_requested: z.ZodLiteral<true> },
  z.core.$strict
> = z.strictObject({
  cancellation_requested: z.literal(true),
});
/** `turn.cancel` result. */
export const TurnCancelResultSchema: typeof CancellationRequestedSchema =
  CancellationRequestedSchema;
/** `turn.cancel` result. */
export type TurnCancelResult = z.infer<typeof TurnCancelResultSchema>;

/** `approval.answer` params. */
export const ApprovalAnswerParamsSchema: z.ZodObject<
  { session_id: z.ZodString; run_id: z.ZodString; approval_id: z.ZodString; allow: z.ZodBoolean },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  run_id: WireIdSchema,
  approval_id: WireIdSchema,
  allow: z.boolean(),
});
/** `approval.answer` params. */
export type ApprovalAnswerParams = z.infer<typeof ApprovalAnswerParamsSchema>;

/** `approval.answer` result. */
export const ApprovalAnswerResultSchema: z.ZodObject<
  { recorded: z.ZodLiteral<true> },
  z.core.$strict
> = z.strictObject({ recorded: z.literal(true) });
/** `approval.answer` result. */
export type ApprovalAnswerResult = z.infer<typeof ApprovalAnswerResultSchema>;
