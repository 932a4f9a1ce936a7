/**
 * The backend liveness probe of `run --stall-timeout`: when no output has
 * arrived from the backend for the stall timeout, send `status` (it never
 * performs provider work and must be answered during runs); a backend that
 * does not answer within the probe bound is stalled.
 *
 * @module
 */

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
}

/**
 * Watches a backend's output: call {@link LivenessProbe.activity} for each
 * chunk; after `stallMs` without one it probes, and reports a stall when the
 * probe is not answered in time. {@link LivenessProbe.stop} clears every timer.
 */
export class LivenessProbe {
  readonly #options: LivenessOptions;
  readonly #probeMs: number;
  #last = performance.now();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #probing: AbortController | null = null;
  #stopped = false;

  /** Start watching now. */
  constructor(options: LivenessOptions) {
    this.#options = options;
    this.#probeMs = options.probeMs ?? Math.min(options.stallMs, STATUS_PROBE_MAX_MS);
    this.#schedule(options.stallMs);
  }

  /** Output arrived from the backend. */
  activity(): void {
    this.#last = performance.now();
  }

  /** Stop watching (idempotent); an outstanding probe is abandoned. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#probing?.abort();
    this.#probing = null;
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => this.#check(), Math.max(1, ms));
  }

  #check(): void {
    const quiet = performance.now() - this.#last;
    if (quiet < this.#options.stallMs) return this.#schedule(this.#options.stallMs - quiet);
    const probing = new AbortController();
    this.#probing = probing;
    let answered = false;
    const timer = setTimeout(() => {
      if (this.#stopped || answered) return;
      probing.abort();
      this.stop();
      this.#options.onStalled();
    }, this.#probeMs);
    this.#options.probe(probing.signal).then(
      () => answered = true,
      () => answered = !probing.signal.aborted,
    ).finally(() => {
      clearTimeout(timer);
      if (this.#probing === probing) this.#probing = null;
      if (this.#stopped || !answered) return;
      this.activity();
      this.#schedule(this.#options.stallMs);
    });
  }
}
