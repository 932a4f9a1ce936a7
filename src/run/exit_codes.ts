/**
 * The CLI's exit codes (`docs/cli.md`) and the one map from what happened to the exit code.
 *
 * Where the map lives: exit codes are the CLI's contract, but the engine writes them too
 * (`turn.finished`'s and `host.error`'s `exit_code`, `runOneTurn`'s `exitCode`), and the
 * engine (`src/run/`) must not import `src/cli/`. So the map lives here, in the lowest
 * floor that produces exit codes: the engine and the CLI both call {@link exitCode}, and
 * the floors above the engine (`batch/`, `report/`, `inspect/`) hand back a code
 * ({@link ExitCause}, a `HostError`, a `Reported`) that the CLI turns into a number here.
 * Nothing below `src/run/` knows exit codes.
 *
 * @module
 */

import type { HostErrorCode } from "../errors/mod.ts";
import { stopSignal } from "../runtime/mod.ts";

/** Exit codes of `magi-tools`. */
export const EXIT = Object.freeze(
  {
    /** The turn completed (or the subcommand succeeded). */
    ok: 0,
    /** The run failed, or `--timeout` cancelled it. */
    runFailed: 1,
    /** Usage error, or a tool module / registry error. */
    usage: 2,
    /** The backend could not start: spawn failure, initialize error, failed status. */
    startup: 3,
    /** Protocol violation, descriptor mismatch, or the backend died after startup. */
    protocol: 4,
    /** Interrupted by SIGINT (or the death of the parent process). */
    interrupted: 130,
    /** Stopped by SIGTERM (gracefully, as on SIGINT). */
    terminated: 143,
    /**
     * `run`/`demo`: the reader of stdout closed it (`run … | head -1`): the turn was stopped
     * quietly, as a process ended by SIGPIPE exits (128 + 13).
     */
    brokenPipe: 141,
  } as const,
);

/** An exit code of `magi-tools`. */
export type ExitCode = typeof EXIT[keyof typeof EXIT];

/**
 * What an invocation ended with: `ok`, `run_failed` (the turn failed or was cancelled by
 * `--timeout`, a batch item failed, `--fail-on-tool-error`, summaries lost), or the code of
 * the error that ended it.
 */
export type ExitCause = "ok" | "run_failed" | HostErrorCode;

/** What {@link exitCode} needs besides the cause. */
export interface ExitContext {
  /** Whether the backend had started (`initialize` succeeded): `backend_exited` → 4, else 3. */
  readonly started?: boolean;
}

/** Every cause's exit code but `backend_exited`'s, which depends on {@link ExitContext}. */
const EXIT_OF: Readonly<Record<Exclude<ExitCause, "backend_exited">, ExitCode>> = Object.freeze({
  ok: EXIT.ok,
  run_failed: EXIT.runFailed,
  request_failed: EXIT.runFailed,
  request_budget_exhausted: EXIT.runFailed,
  usage: EXIT.usage,
  config: EXIT.usage,
  source_start: EXIT.usage,
  sign_in_required: EXIT.usage,
  feature_unavailable: EXIT.usage,
  tool_load: EXIT.usage,
  registry: EXIT.usage,
  kernel_required: EXIT.usage,
  batch_input: EXIT.usage,
  report_input: EXIT.usage,
  backend_unavailable: EXIT.startup,
  startup_failed: EXIT.startup,
  protocol_violation: EXIT.protocol,
  backend_stalled: EXIT.protocol,
  descriptor_mismatch: EXIT.protocol,
  client_closed: EXIT.protocol,
  interrupted: EXIT.interrupted,
});

/**
 * The exit code of `cause`: the one place that maps what happened to a number.
 *
 * @example
 * ```ts
 * import { exitCode } from "./exit_codes.ts";
 * console.assert(exitCode("usage") === 2 && exitCode("backend_exited", { started: true }) === 4);
 * ```
 */
export function exitCode(cause: ExitCause, context: ExitContext = {}): ExitCode {
  if (cause === "backend_exited") return context.started === true ? EXIT.protocol : EXIT.startup;
  // A graceful stop exits 128 + the signal that asked for it: SIGTERM 143, SIGINT 130.
  if (cause === "interrupted" && stopSignal() === "SIGTERM") return EXIT.terminated;
  return EXIT_OF[cause];
}
