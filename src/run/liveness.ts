/**
 * The backend liveness probe of `run --stall-timeout`: when no output has
 * arrived from the backend for the stall timeout, send `status` (it never
 * performs provider work and must be answered during runs); a backend that
 * does not answer within the probe bound is stalled.
 *
 * @module
 */

import { type Clock, REAL_CLOCK, type TimerId } from "../async/clock.ts";

/** Default `--stall-timeout`, ms. */
export const DEFAULT_STALL_TIMEOUT_MS = 60_000;
/** The most a `status` probe may take to be answered, ms. */
export const STATUS_PROBE_MAX_MS = 10_000;

/** Options of {@link LivenessProbe}. */
export interface LivenessOptions {
  /** Quiet time before probing, ms (> 0). */
  stallMs: number;
  /** How long the probe may take, ms; default `min(stallMs, STATUS_PROBE_MAX_MS)`. */
  probeMs?: number;
  /** Send `status`; resolves when answered (any answer, even an error, shows life). */
  probe: (signal: AbortSignal) => Promise<unknown>;
  /** Called once when the probe went unanswered. */
  onStalled: () => void;
  /** The clock of the quiet time and the probe bound; default {@link REAL_CLOCK}. */
  clock?: Clock;
}

/**
 * Watches a backend's output: call {@link LivenessProbe.activity} for each
 * chunk; after `stallMs` without one it probes, and reports a stall when the
 * probe is not answered in time. {@link LivenessProbe.stop} clears every timer.
 */
export class LivenessProbe {
  readonly #options: LivenessOptions;
  readonly #probeMs: number;
  readonly #clock: Clock;
  #last: number;
  #timer: TimerId | undefined;
  #probing: AbortController | null = null;
  #stopped = false;

  /** Start watching now. */
  constructor(options: LivenessOptions) {
    this.#options = options;
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#last = this.#clock.now();
    this.#probeMs = options.probeMs ?? Math.min(options.stallMs, STATUS_PROBE_MAX_MS);
    this.#schedule(options.stallMs);
  }

  /** Output arrived from the backend. */
  activity(): void {
    this.#last = this.#clock.now();
  }

  /** Stop watching (idempotent); an outstanding probe is abandoned. */
  stop(): void {
    this.#stopped = true;
    this.#clock.clearTimeout(this.#timer);
    this.#probing?.abort();
    this.#probing = null;
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.#timer = this.#clock.setTimeout(() => this.#check(), Math.max(1, ms));
  }

  #check(): void {
    const quiet = this.#clock.now() - this.#last;
    if (quiet < this.#options.stallMs) return this.#schedule(this.#options.stallMs - quiet);
    const probing = new AbortController();
    this.#probing = probing;
    let answered = false;
    const timer = this.#clock.setTimeout(() => {
      if (this.#stopped || answered) return;
      probing.abort();
      this.stop();
      this.#options.onStalled();
    }, this.#probeMs);
    this.#options.probe(probing.signal).then(
      () => answered = true,
      () => answered = !probing.signal.aborted,
    ).finally(() => {
      this.#clock.clearTimeout(timer);
      if (this.#probing === probing) this.#probing = null;
      if (this.#stopped || !answered) return;
      this.activity();
      this.#schedule(this.#options.stallMs);
    });
  }
}
