/**
 * Stop signals of one invocation: a soft stop (first SIGINT, `--timeout`,
 * summaries unwritable, request-ID budget exhausted)
 * asks the backend to cancel; a hard stop (second SIGINT, watchdog) kills
 * the backend at once.
 *
 * One Ctrl-C often reaches the host as several SIGINTs: the terminal signals
 * the whole foreground process group, and `deno task` and `npx` forward the
 * one they got to their child as well. SIGINTs within
 * {@link SIGINT_COALESCE_MS} of the one that took effect are therefore the
 * same keypress and ignored; a deliberate second Ctrl-C later forces the stop.
 *
 * @module
 */

/**
 * SIGINTs arriving within this many milliseconds of the one that took effect
 * count as the same Ctrl-C (forwarded copies from `deno task`/`npx` arrive
 * within a few milliseconds, more on a loaded machine).
 */
export const SIGINT_COALESCE_MS = 500;

/** Options of {@link StopState}. */
export interface StopStateOptions {
  /** SIGINT coalescing window, ms (default {@link SIGINT_COALESCE_MS}; 0 disables it). */
  coalesceMs?: number;
  /** Monotonic clock, ms (default `performance.now`). */
  now?: () => number;
}

/**
 * Why the invocation is stopping (`output`: the summaries cannot be written to
 * stdout; `budget`: the connection's request-ID budget cannot take more tool results;
 * `source`: a tool source failed for good, e.g. an MCP server needs a sign-in).
 */
export type StopCause = "signal" | "timeout" | "output" | "budget" | "source";

/**
 * Soft and hard stop state shared by the run steps.
 *
 * @example
 * ```ts
 * import { StopState } from "./stop.ts";
 * let t = 0;
 * const stop = new StopState({ now: () => t });
 * stop.interrupt(); // Ctrl-C: soft stop
 * t = 5;
 * stop.interrupt(); // the same Ctrl-C forwarded by `deno task`: ignored
 * console.assert(stop.soft.signal.aborted && !stop.hard.signal.aborted);
 * t = 2_000;
 * stop.interrupt(); // a second Ctrl-C: hard stop
 * console.assert(stop.hardCause === "signal");
 * ```
 */
export class StopState {
  /** Aborted on the first stop request. */
  readonly soft: AbortController = new AbortController();
  /** Aborted on the second SIGINT or when a watchdog gives up. */
  readonly hard: AbortController = new AbortController();
  #cause: StopCause | null = null;
  #hardCause: "signal" | "watchdog" | null = null;
  #listeners = new Set<(cause: StopCause) => void>();
  readonly #coalesceMs: number;
  readonly #now: () => number;
  /** When the last SIGINT that took effect arrived, or null. */
  #signalAt: number | null = null;

  /** A stop state; `options` set the SIGINT coalescing window and clock (for tests). */
  constructor(options: StopStateOptions = {}) {
    this.#coalesceMs = options.coalesceMs ?? SIGINT_COALESCE_MS;
    this.#now = options.now ?? (() => performance.now());
  }

  /** The first stop's cause, or null. */
  get cause(): StopCause | null {
    return this.#cause;
  }

  /** Why the hard stop happened, or null. */
  get hardCause(): "signal" | "watchdog" | null {
    return this.#hardCause;
  }

  /** Call `listener` on the first soft stop (at once if it already happened). */
  onSoftStop(listener: (cause: StopCause) => void): () => void {
    if (this.#cause !== null) {
      listener(this.#cause);
      return () => {};
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * SIGINT: the first is a soft stop; the next (or one after a timeout) is a hard stop.
   * One arriving within the coalescing window of the last effective one is the same
   * Ctrl-C and ignored.
   */
  interrupt(): void {
    const now = this.#now();
    if (this.#signalAt !== null && now - this.#signalAt < this.#coalesceMs) return;
    this.#signalAt = now;
    if (this.#cause === null) return this.#softStop("signal");
    this.#cause = "signal";
    this.kill("signal");
  }

  /** `--timeout` expired. */
  timeout(): void {
    if (this.#cause === null) this.#softStop("timeout");
  }

  /** stdout failed: no one reads the summaries any more, so stop the turn. */
  outputFailed(): void {
    if (this.#cause === null) this.#softStop("output");
  }

  /** The request-ID budget ran out: no tool result can be sent, so stop the turn. */
  budgetExhausted(): void {
    if (this.#cause === null) this.#softStop("budget");
  }

  /** A tool source failed for good (a sign-in is needed): stop the turn. */
  sourceFailed(): void {
    if (this.#cause === null) this.#softStop("source");
  }

  /** Hard stop. */
  kill(cause: "signal" | "watchdog"): void {
    if (this.hard.signal.aborted) return;
    this.#hardCause = cause;
    this.hard.abort(new Error(`Stopped: ${cause}`));
  }

  #softStop(cause: StopCause): void {
    this.#cause = cause;
    this.soft.abort(new Error(`Stopping: ${cause}`));
    for (const listener of this.#listeners) listener(cause);
    this.#listeners.clear();
  }
}
