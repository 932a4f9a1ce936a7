/**
 * Stop signals of one invocation: a soft stop (first SIGINT, `--timeout`,
 * summaries unwritable, request-ID budget exhausted)
 * asks the backend to cancel; a hard stop (second SIGINT, watchdog) kills
 * the backend at once.
 *
 * @module
 */

/**
 * Why the invocation is stopping (`output`: the summaries cannot be written to
 * stdout; `budget`: the connection's request-ID budget cannot take more tool results).
 */
export type StopCause = "signal" | "timeout" | "output" | "budget";

/** Soft and hard stop state shared by the run steps. */
export class StopState {
  /** Aborted on the first stop request. */
  readonly soft: AbortController = new AbortController();
  /** Aborted on the second SIGINT or when a watchdog gives up. */
  readonly hard: AbortController = new AbortController();
  #cause: StopCause | null = null;
  #hardCause: "signal" | "watchdog" | null = null;
  #listeners = new Set<(cause: StopCause) => void>();

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

  /** SIGINT: the first is a soft stop; the next (or one after a timeout) is a hard stop. */
  interrupt(): void {
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
