/**
 * Resident-set watch for tool processes with `memoryMb` (Linux, internal).
 *
 * V8's `--max-old-space-size` caps only the JavaScript heap; ArrayBuffers and
 * other off-heap memory escape it. While a call runs, its process's resident
 * set (`VmRSS` of `/proc/<pid>/status`) is sampled every {@link RSS_POLL_MS}
 * ms by one timer shared by every watched process, and a process over its cap
 * is reported (the caller kills it). Where `/proc` cannot be read (not Linux,
 * or the host lacks read access to `/proc`) nothing is watched and only the
 * heap cap applies.
 *
 * @module
 */

/** How often watched processes are sampled, ms. */
export const RSS_POLL_MS = 25;

interface Watched {
  readonly limitKiB: number;
  readonly onExceed: (rssKiB: number) => void;
}

const watched = new Map<number, Watched>();
let timer: ReturnType<typeof setInterval> | undefined;
let available: boolean | undefined;

/** Resident set of `pid` in KiB, or null when it cannot be read (gone, no `/proc`, no permission). */
export function residentKiB(pid: number): number | null {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    return match === null ? null : Number(match[1]);
  } catch {
    return null;
  }
}

/** Whether resident sets can be read here (checked once, on this process). */
export function rssWatchAvailable(): boolean {
  available ??= residentKiB(Deno.pid) !== null;
  return available;
}

/**
 * Watch `pid` until the returned function is called: once its resident set
 * exceeds `limitMiB`, `onExceed` runs (once) and the watch ends. A no-op
 * where {@link rssWatchAvailable} is false.
 */
export function watchRss(
  pid: number,
  limitMiB: number,
  onExceed: (rssKiB: number) => void,
): () => void {
  if (!rssWatchAvailable()) return () => {};
  watched.set(pid, { limitKiB: limitMiB * 1024, onExceed });
  timer ??= setInterval(sample, RSS_POLL_MS);
  return () => unwatch(pid);
}

function unwatch(pid: number): void {
  watched.delete(pid);
  if (watched.size === 0 && timer !== undefined) {
    clearInterval(timer);
    timer = undefined;
  }
}

function sample(): void {
  for (const [pid, watch] of watched) {
    const rss = residentKiB(pid);
    if (rss === null || rss <= watch.limitKiB) continue;
    unwatch(pid);
    watch.onExceed(rss);
  }
}
