/**
 * `turn.start`, `turn.cancel` and `approval.answer`: each params and result type an
 * object type, its schema typed as it.
 *
 * @module
 */

import { z } from "zod";
import { PROMPT_BYTES } from "../limits.ts";
import { boundedString, SessionIdSchema, WireIdSchema } from "./common.ts";

/** `turn.start` params. */
export type TurnStartParams = {
  session_id: string;
  /** 1–16384 UTF-8 bytes, not only whitespace. */
  prompt: string;
};

/** `turn.start` result: admission only. */
export type TurnStartResult = {
  run_id: string;
  accepted: true;
};

/** `turn.cancel` params. */
export type TurnCancelParams = {
  session_id: string;
  run_id: string;
};

/** `turn.cancel` (and `operation.cancel`) result. */
export type CancellationRequested = {
  cancellation_requested: true;
};
/** `turn.cancel` result. */
export type TurnCancelResult = CancellationRequested;

/** `approval.answer` params. */
export type ApprovalAnswerParams = {
  session_id: string;
  run_id: string;
  approval_id: string;
  allow: boolean;
};

/** `approval.answer` result. */
export type ApprovalAnswerResult = {
  recorded: true;
};

const ALL_WHITESPACE = /^\p{White_Space}*$/u;

/** A prompt: 1–16384 UTF-8 bytes, not only whitespace. */
export const PromptSchema: z.ZodString = boundedString(PROMPT_BYTES, { minBytes: 1 }).refine(
  (text) => !ALL_WHITESPACE.test(text),
  { message: "Prompt must contain a non-whitespace character" },
);

function build() {
  return {
    TurnStartParamsSchema: z.strictObject({ session_id: SessionIdSchema, prompt: PromptSchema }),
    TurnStartResultSchema: z.strictObject({ run_id: WireIdSchema, accepted: z.literal(true) }),
    TurnCancelParamsSchema: z.strictObject({ session_id: SessionIdSchema, run_id: WireIdSchema }),
    CancellationRequestedSchema: z.strictObject({ cancellation_requested: z.literal(true) }),
    ApprovalAnswerParamsSchema: z.strictObject({
      session_id: SessionIdSchema,
      run_id: WireIdSchema,
      approval_id: WireIdSchema,
      allow: z.boolean(),
    }),
    ApprovalAnswerResultSchema: z.strictObject({ recorded: z.literal(true) }),
  };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type TurnSchemas = ReturnType<typeof build>;
const built: TurnSchemas = build();

/** `turn.start` params. */
export const TurnStartParamsSchema: z.ZodType<TurnStartParams> = built.TurnStartParamsSchema;
/** `turn.start` result. */
export const TurnStartResultSchema: z.ZodType<TurnStartResult> = built.TurnStartResultSchema;
/** `turn.cancel` params. */
export const TurnCancelParamsSchema: z.ZodType<TurnCancelParams> = built.TurnCancelParamsSchema;
/** `turn.cancel` (and `operation.cancel`) result. */
export const CancellationRequestedSchema: z.ZodType<CancellationRequested> =
  built.CancellationRequestedSchema;
/** `turn.cancel` result. */
export const TurnCancelResultSchema: z.ZodType<TurnCancelResult> = CancellationRequestedSchema;
/** `approval.answer` params. */
export const ApprovalAnswerParamsSchema: z.ZodType<ApprovalAnswerParams> =
  built.ApprovalAnswerParamsSchema;
/** `approval.answer` result. */
export const ApprovalAnswerResultSchema: z.ZodType<ApprovalAnswerResult> =
  built.ApprovalAnswerResultSchema;
