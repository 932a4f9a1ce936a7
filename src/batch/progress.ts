/**
 * The batch progress line on stderr: a bar, done/failed/running counts, rate
 * and ETA, redrawn in place (`\r`) at most every {@link PROGRESS_INTERVAL_MS}
 * and at each finished item; a final newline on {@link Progress.end}.
 *
 * @module
 */

/** Redraw interval of the progress line, ms. */
export const PROGRESS_INTERVAL_MS = 250;

const BAR_WIDTH = 24;

/** Counts shown by the progress line. */
export interface ProgressCounts {
  /** Items to run in this invocation. */
  total: number;
  /** Items finished with exit code 0. */
  done: number;
  /** Items finished with another exit code. */
  failed: number;
  /** Items running now. */
  running: number;
}

/**
 * The progress line for `counts` after `elapsedMs`.
 *
 * @example
 * ```ts
 * import { progressLine } from "./progress.ts";
 * const line = progressLine({ total: 10, done: 4, failed: 1, running: 2 }, 5_000);
 * console.assert(line.includes("5/10") && line.includes("1.0 items/s") && line.includes("ETA 5s"));
 * ```
 */
export function progressLine(counts: ProgressCounts, elapsedMs: number): string {
  const finished = counts.done + counts.failed;
  const share = counts.total === 0 ? 1 : finished / counts.total;
  const filled = Math.round(share * BAR_WIDTH);
  const bar = "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled);
  const rate = elapsedMs > 0 ? finished / (elapsedMs / 1000) : 0;
  const remaining = counts.total - finished;
  const eta = rate > 0 ? formatSeconds(remaining / rate) : "?";
  return `[${bar}] ${finished}/${counts.total}  done ${counts.done}  failed ${counts.failed}  ` +
    `running ${counts.running}  ${rate.toFixed(1)} items/s  ETA ${eta}`;
}

function formatSeconds(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** A live progress line written with `write` (stderr). */
export class Progress {
  readonly #write: (text: string) => void;
  readonly #counts: () => ProgressCounts;
  readonly #started = Date.now();
  readonly #timer: ReturnType<typeof setInterval>;

  /** Start redrawing `counts()` with `write`. */
  constructor(write: (text: string) => void, counts: () => ProgressCounts) {
    this.#write = write;
    this.#counts = counts;
    this.#timer = setInterval(() => this.draw(), PROGRESS_INTERVAL_MS);
    this.draw();
  }

  /** Redraw now. */
  draw(): void {
    this.#write(`\r${progressLine(this.#counts(), Date.now() - this.#started)}\x1b[K`);
  }

  /** Last redraw and a newline; stops the timer. */
  end(): void {
    clearInterval(this.#timer);
    this.draw();
    this.#write("\n");
  }
}
