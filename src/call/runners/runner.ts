/**
 * What a tool runner is: one per {@link ToolKind} (`inline.ts`, `process.ts`, `external.ts`).
 * The executor looks the tool up, asks its kind's runner to check the arguments, takes the
 * approval, the slot and the deadline, then hands the call to {@link ToolRunner.run} and
 * settles what comes back (`../settle.ts`).
 *
 * @module
 */

import type { Clock, TimerId } from "../../async/clock.ts";
import type { Answer, Stop } from "../../tool/answers.ts";
import type { ToolCallRequest } from "../../tool/call.ts";
import { ProgressLimiter } from "../../tool/progress.ts";
import type { ToolProgress } from "../../tool/external.ts";
import { errorText, type Settled } from "../settle.ts";
import type { RegisteredTool, ToolKind } from "../../toolset/registry.ts";

export type { Settled } from "../settle.ts";

/**
 * The arguments a call runs with (`data`; a module tool's as its schema parsed them), or the
 * answer refusing them. Shaped like zod's `safeParse` result, so a parsed success passes as is.
 */
export type Checked =
  | { readonly success: true; readonly data: unknown }
  | { readonly success: false; readonly answer: Answer };

/** One call's run, as the executor hands it to a runner. */
export interface RunControl {
  /** The call. */
  readonly call: ToolCallRequest;
  /** Aborted with a {@link Stop} on the caller's cancel, the deadline or the tool's timeout. */
  readonly stop: AbortController;
  /** The backend's deadline as wall-clock time (`Date.now()`), delivery margin kept back. */
  readonly deadlineAt: number;
}

/** Runs the tools of one {@link ToolKind}. */
export interface ToolRunner<E extends RegisteredTool = RegisteredTool> {
  /** Check `args` before a person or a slot is asked (`invalid_arguments`). */
  check(entry: E, args: unknown): Checked;
  /**
   * What else must hold before a person is asked about a write call (e.g. a described tool's
   * schema, checked in the host as its process would); null when fine.
   */
  checkForPerson?(entry: E, args: unknown): Answer | null;
  /** Run the call with the checked arguments; never rejects for the tool's own failures. */
  run(entry: E, args: unknown, control: RunControl): Promise<Settled>;
}

/** A runner for each kind, as the executor keeps them. */
export type Runners = {
  readonly [K in ToolKind]: ToolRunner<Extract<RegisteredTool, { kind: K }>>;
};

/** What every runner shares with the executor. */
export interface RunnerEnv {
  /** Working directory handed to tools as `ctx.cwd`. */
  readonly cwd: string;
  /** The executor's clock (timeouts, grace). */
  readonly clock: Clock;
  /** How long a signalled tool may take to settle, ms. */
  readonly graceMs: number;
  /** The bounded progress reporter of one call (`../progress.ts`); silent once `signal` fired. */
  progress(call: ToolCallRequest, name: string, signal: AbortSignal): ProgressLimiter;
}

/**
 * One call's progress reports: its limiter (`env.progress`) is made on the first update, as
 * most calls report none; {@link CallProgress.close} delivers what it holds.
 */
export class CallProgress {
  readonly #env: RunnerEnv;
  readonly #call: ToolCallRequest;
  readonly #name: string;
  readonly #signal: AbortSignal;
  #limiter: ProgressLimiter | undefined;

  /** Progress of `call` to tool `name`, silent once `signal` fired. */
  constructor(env: RunnerEnv, call: ToolCallRequest, name: string, signal: AbortSignal) {
    this.#env = env;
    this.#call = call;
    this.#name = name;
    this.#signal = signal;
  }

  /** Offer one update to the call's limiter. */
  push(update: ToolProgress): void {
    this.#limiter ??= this.#env.progress(this.#call, this.#name, this.#signal);
    this.#limiter.push(update);
  }

  /** Deliver a held update now and accept no more (before the call's result). */
  close(): void {
    if (this.#limiter === undefined) this.#limiter = CLOSED;
    else this.#limiter.close();
  }
}

/** What a closed {@link CallProgress} without a limiter holds: a limiter taking nothing. */
const CLOSED = (() => {
  const limiter = new ProgressLimiter(() => {});
  limiter.close();
  return limiter;
})();

/**
 * Arm the tool's own `timeoutMs` (aborting `control.stop` with a timeout stop)
 * and compute the call's effective deadline: the earlier of the backend's
 * deadline and the tool's timeout. The caller clears `timeoutTimer` on the same `clock`.
 */
export function armToolTimeout(
  timeoutMs: number | undefined,
  control: { stop: AbortController; deadlineAt: number },
  clock: Clock,
): { timeoutTimer: TimerId | undefined; deadline: number } {
  if (timeoutMs === undefined) return { timeoutTimer: undefined, deadline: control.deadlineAt };
  const timeoutTimer = clock.setTimeout(
    () => control.stop.abort({ kind: "timeout", ms: timeoutMs } satisfies Stop),
    timeoutMs,
  );
  return { timeoutTimer, deadline: Math.min(control.deadlineAt, Date.now() + timeoutMs) };
}

/** What the runners share: the working directory, clock, grace, and the progress reporter. */
export function runnerEnv(
  cwd: string,
  clock: Clock,
  graceMs: number,
  onProgress:
    | ((callId: string, name: string, progress: ToolProgress, call: ToolCallRequest) => void)
    | undefined,
): RunnerEnv {
  return {
    cwd,
    clock,
    graceMs,
    progress: (call, name, signal) =>
      new ProgressLimiter((update) => {
        if (signal.aborted || onProgress === undefined) return;
        try {
          onProgress(call.callId, name, update, call);
        } catch (error) {
          console.error(`Tool progress callback failed: ${errorText(error)}`);
        }
      }, clock),
  };
}
