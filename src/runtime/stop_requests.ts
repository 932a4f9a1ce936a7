/**
 * Stop requests, runtime-neutral: SIGINT, SIGTERM and the death of the parent
 * process, fanned out to every listener, and which signal came first. The
 * adapter's `onInterrupt` and `stopSignal` (`policy.ts`) are one instance over
 * the runtime's signals and unref'd timers; tests make their own over fakes.
 *
 * @module
 */

import { watchParent, type WatchTimers } from "./parent_watch.ts";
import type { Runtime, StopSignal } from "./types.ts";

/** What {@link stopRequests} needs of the runtime (injected in tests). */
export interface StopRequestDeps {
  /** The parent pid this process started with. */
  readonly startPpid: number;
  /** The current parent pid. */
  readonly ppid: () => number;
  /** {@link Runtime.onSignal}. */
  readonly onSignal: Runtime["onSignal"];
  /** Timers of the parent watch; the real ones must not keep the process alive. */
  readonly timers: WatchTimers;
  /** Where the parent's death is told, once. */
  readonly warn: (line: string) => void;
}

/** The stop requests of one process: {@link onInterrupt} and {@link stopSignal} over `deps`. */
export function stopRequests(deps: StopRequestDeps): {
  onInterrupt: (listener: () => void) => () => void;
  stopSignal: () => StopSignal | null;
} {
  /** One entry a registration, and the parent watch that runs while there are any. */
  const listeners = new Set<() => void>();
  let stopWatch: (() => void) | null = null;
  let first: StopSignal | null = null;
  const onGone = (again: boolean) => {
    if (!again) {
      deps.warn(
        `magi-tools: the parent process (pid ${deps.startPpid}) exited: stopping as on Ctrl-C`,
      );
    }
    first ??= "SIGINT";
    for (const each of [...listeners]) each();
  };
  const onInterrupt = (listener: () => void) => {
    const entry = () => listener();
    const removeInt = deps.onSignal("SIGINT", () => {
      first ??= "SIGINT";
      listener();
    });
    const removeTerm = deps.onSignal("SIGTERM", () => {
      first ??= "SIGTERM";
      listener();
    });
    listeners.add(entry);
    stopWatch ??= watchParent({
      ppid: deps.ppid,
      startPpid: deps.startPpid,
      timers: deps.timers,
      onGone,
    });
    return () => {
      listeners.delete(entry);
      if (listeners.size === 0) {
        stopWatch?.();
        stopWatch = null;
      }
      removeInt();
      removeTerm();
    };
  };
  return { onInterrupt, stopSignal: () => first };
}
