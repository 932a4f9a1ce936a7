/**
 * Noticing that the process which started this one has gone: a process
 * whose parent dies is re-parented (to PID 1 or a subreaper), so its parent
 * pid changes. Polling the parent pid needs no permission and works under
 * every task's flags (a parent-death signal would need `--allow-ffi`).
 *
 * Used by `onInterrupt` (`stop_requests.ts`): the death of the parent
 * (`deno task`, `npx`, a shell script killed with SIGKILL) is a stop request
 * like Ctrl-C, then, if the process is still running {@link PARENT_GONE_GRACE_MS}
 * later, like a second Ctrl-C. Without it a host started by a task that was
 * killed would run on under PID 1, writing to its output, with no one to stop it.
 *
 * @module
 */

/** How often the parent pid is checked, ms. */
export const PARENT_POLL_MS = 500;
/** After the parent has gone, how long before the stop request is repeated (hard stop), ms. */
export const PARENT_GONE_GRACE_MS = 5_000;

/** Timers of {@link watchParent} (injected in tests); the real ones must not keep the process alive. */
export interface WatchTimers {
  /** Call `fn` every `ms`; returns a cancel function. */
  every(fn: () => void, ms: number): () => void;
  /** Call `fn` once after `ms`; returns a cancel function. */
  after(fn: () => void, ms: number): () => void;
}

/** Options of {@link watchParent}. */
export interface ParentWatchOptions {
  /** The current parent pid (read at each check). */
  ppid: () => number;
  /** The parent pid this process started with; default the first `ppid()`. */
  startPpid?: number;
  /** Timers (default: unref'd `setInterval`/`setTimeout` of the adapter). */
  timers: WatchTimers;
  /**
   * Called when the parent is found gone (`again: false`), and once more
   * `graceMs` later (`again: true`) unless the watch was stopped meanwhile.
   */
  onGone: (again: boolean) => void;
  /** Check interval, ms; default {@link PARENT_POLL_MS}. */
  intervalMs?: number;
  /** Delay of the second `onGone`, ms; default {@link PARENT_GONE_GRACE_MS}. */
  graceMs?: number;
}

/**
 * Watch the parent pid; returns a function that stops the watch (idempotent).
 * A process started with parent pid 1 cannot tell (it has no parent to lose):
 * nothing is watched.
 *
 * @example
 * ```ts
 * import { watchParent } from "./parent_watch.ts";
 * let ppid = 42;
 * const ticks: Array<() => void> = [];
 * const gone: boolean[] = [];
 * const stop = watchParent({
 *   ppid: () => ppid,
 *   timers: { every: (fn) => (ticks.push(fn), () => {}), after: () => () => {} },
 *   onGone: (again) => gone.push(again),
 * });
 * ticks[0]!();
 * console.assert(gone.length === 0);
 * ppid = 1; // the parent died: re-parented to init
 * ticks[0]!();
 * console.assert(gone[0] === false);
 * stop();
 * ```
 */
export function watchParent(options: ParentWatchOptions): () => void {
  const start = options.startPpid ?? options.ppid();
  if (start <= 1) return () => {};
  let cancelTick: (() => void) | null = null;
  let cancelGrace: (() => void) | null = null;
  let stopped = false;
  const stop = () => {
    stopped = true;
    cancelTick?.();
    cancelGrace?.();
    cancelTick = cancelGrace = null;
  };
  const check = () => {
    if (stopped || options.ppid() === start) return;
    cancelTick?.();
    cancelTick = null;
    cancelGrace = options.timers.after(() => {
      cancelGrace = null;
      if (!stopped) options.onGone(true);
    }, options.graceMs ?? PARENT_GONE_GRACE_MS);
    options.onGone(false);
  };
  cancelTick = options.timers.every(check, options.intervalMs ?? PARENT_POLL_MS);
  // A parent already gone when the watch starts (an orphan entering a new phase) stops it too.
  check();
  return stop;
}
