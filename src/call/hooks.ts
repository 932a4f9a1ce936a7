/**
 * Hooks around each tool call, for a program that embeds the host (`runOneTurn`'s `beforeCall`
 * and `afterCall`): before a call runs, refuse it with a reason; after, rewrite the text the
 * model gets (e.g. redaction). Both fail closed: a hook that throws (anything but
 * {@link CallRefusedError}) answers the call `hook_failed` instead of running it or sending its
 * unrewritten result.
 *
 * @module
 */

import type { Answer } from "../tool/answers.ts";
import type { ToolCallOutcome } from "../tool/call.ts";

/** One call as the hooks see it. */
export interface HookedCall {
  /** The call's ID. */
  readonly callId: string;
  /** The run it belongs to. */
  readonly runId: string;
  /** The tool. */
  readonly name: string;
  /** The arguments as the model produced them (`beforeCall`: not validated yet). */
  readonly arguments: unknown;
}

/** A call's result as `afterCall` sees it. */
export interface HookedResult {
  /** `success`, `error` or `cancelled`. */
  readonly outcome: ToolCallOutcome;
  /** With an `error`: its code. */
  readonly errorCode?: string;
  /** The text the model gets. */
  readonly text: string;
}

/** What `beforeCall` may answer: nothing (run it) or a refusal with its reason. */
export type BeforeCallVerdict = void | undefined | { readonly refuse: string };

/** The hooks of one turn. */
export interface CallHooks {
  /**
   * Before the call runs (before its approval): answer `{ refuse: reason }`, or throw a
   * {@link CallRefusedError}, and the call answers `error`/`refused` with the reason instead.
   */
  readonly beforeCall?: (call: HookedCall) => BeforeCallVerdict | Promise<BeforeCallVerdict>;
  /**
   * After the call: a string replaces the result's text (the outcome and error code stay);
   * nothing keeps it.
   */
  readonly afterCall?: (
    call: HookedCall,
    result: HookedResult,
  ) => string | void | undefined | Promise<string | void | undefined>;
}

/** Thrown by `beforeCall` to refuse a call; `message` is the reason the model is told. */
export class CallRefusedError extends Error {
  /** Create the refusal. */
  constructor(reason: string) {
    super(reason);
    this.name = "CallRefusedError";
  }
}

const REASON_CHARS = 1000;

function refused(name: string, reason: string): Answer {
  return {
    outcome: "error",
    errorCode: "refused",
    text: `Call refused: ${name}: ${reason.slice(0, REASON_CHARS)}`,
  };
}

function hookFailed(hook: string, name: string, error: unknown): Answer {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`magi-tools: the ${hook} hook failed on ${name}: ${message}`);
  return {
    outcome: "error",
    errorCode: "hook_failed",
    text: `Call not completed: ${name}: the host's ${hook} hook failed`,
  };
}

/** `beforeCall`'s refusal (or failure) as the call's answer; null: run the call. */
export async function beforeCallAnswer(hooks: CallHooks, call: HookedCall): Promise<Answer | null> {
  if (hooks.beforeCall === undefined) return null;
  try {
    const verdict = await hooks.beforeCall(call);
    if (verdict === undefined || verdict === null) return null;
    if (typeof verdict === "object" && typeof verdict.refuse === "string") {
      return refused(call.name, verdict.refuse);
    }
    throw new TypeError("beforeCall must return nothing or { refuse: string }");
  } catch (error) {
    if (error instanceof CallRefusedError) return refused(call.name, error.message);
    return hookFailed("beforeCall", call.name, error);
  }
}

/** `answer` with the text `afterCall` gives (unchanged without one; `hook_failed` on a throw). */
export async function afterCallAnswer(
  hooks: CallHooks,
  call: HookedCall,
  answer: Answer,
): Promise<Answer> {
  if (hooks.afterCall === undefined) return answer;
  try {
    const text = await hooks.afterCall(call, {
      outcome: answer.outcome,
      ...(answer.errorCode === undefined ? {} : { errorCode: answer.errorCode }),
      text: answer.text,
    });
    if (text === undefined || text === null) return answer;
    if (typeof text !== "string") throw new TypeError("afterCall must return a string or nothing");
    if (text === answer.text) return answer;
    const { split: _split, ...rest } = answer;
    return { ...rest, text };
  } catch (error) {
    return hookFailed("afterCall", call.name, error);
  }
}
