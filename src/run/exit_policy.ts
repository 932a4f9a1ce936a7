/**
 * The exit policy of a turn, as a pure function: how the run's outcome, the stop that
 * cancelled it and the checks after it (`--last-message`, the summaries, `--fail-on-tool-error`)
 * decide the `turn.finished` record's `exit_code`, `exit_reason` and `cancelled_by`
 * (docs/cli.md "Exit codes", docs/summaries.md `turn.finished`).
 *
 * @module
 */

import type { RunFinishedData } from "../protocol/schemas/mod.ts";
import type { TurnFinishedRecord } from "../summary/records.ts";
import { EXIT, exitCode } from "./exit_codes.ts";
import type { StopCause } from "./stop.ts";

/** How a turn ended: everything {@link turnExit} decides on. */
export interface TurnEnd {
  /** `run.finished`'s outcome. */
  readonly outcome: RunFinishedData["outcome"];
  /** The first stop of the turn (SIGINT, `--timeout`, stdout failed, request-ID budget), or null. */
  readonly stopCause: StopCause | null;
  /** `--last-message` was given and its file could not be written. */
  readonly lastMessageUnwritable: boolean;
  /** The summaries could not be written (stdout failed). */
  readonly summaryOutputFailed: boolean;
  /** `--fail-on-tool-error`: the turn's tool errors and denials; null without the flag. */
  readonly toolErrors: number | null;
}

/** The exit fields of `turn.finished`. */
export type TurnExit = Pick<TurnFinishedRecord, "exit_code" | "exit_reason" | "cancelled_by">;

/**
 * The exit of a turn that ended with `run.finished`: 0 when it completed, 130 when a SIGINT
 * cancelled it, else 1; `cancelled_by` names a cancelling SIGINT or `--timeout` (not a stop for
 * unwritable summaries or an exhausted request-ID budget). A completed turn still exits 1, with
 * its `exit_reason`, when the `--last-message` file was not written, the summaries were not
 * (`summary_output_failed`), or tool calls failed under `--fail-on-tool-error`, checked in that
 * order.
 *
 * @example
 * ```ts
 * import { turnExit } from "./exit_policy.ts";
 * const exit = turnExit({
 *   outcome: "completed",
 *   stopCause: null,
 *   lastMessageUnwritable: false,
 *   summaryOutputFailed: false,
 *   toolErrors: 2,
 * });
 * console.assert(exit.exit_code === 1 && exit.exit_reason === "tool_errors");
 * ```
 */
export function turnExit(end: TurnEnd): TurnExit {
  const cause = end.outcome === "cancelled" ? end.stopCause : null;
  const cancelledBy = cause === "output" || cause === "budget" || cause === "source" ? null : cause;
  const code = end.outcome === "completed"
    ? exitCode("ok")
    : cancelledBy === "signal"
    ? exitCode("interrupted")
    : exitCode("run_failed");
  const reason: TurnFinishedRecord["exit_reason"] = code !== EXIT.ok
    ? undefined
    : end.lastMessageUnwritable
    ? "last_message_unwritable"
    : end.summaryOutputFailed
    ? "summary_output_failed"
    : end.toolErrors !== null && end.toolErrors > 0
    ? "tool_errors"
    : undefined;
  if (reason === undefined) return { exit_code: code, cancelled_by: cancelledBy };
  return { exit_code: exitCode("run_failed"), exit_reason: reason, cancelled_by: cancelledBy };
}

/**
 * The exit code of `run` once its turn (or failure) is over: never success when the
 * summaries were lost (the turn was cancelled when stdout failed).
 */
export function invocationExit(code: number, summaryOutputFailed: boolean): number {
  return summaryOutputFailed && code === EXIT.ok ? exitCode("run_failed") : code;
}
