/**
 * Reaping a child in bounded steps. Runtime-neutral: it only uses the
 * {@link ChildHandle} both adapters return.
 *
 * @module
 */

import { waitWithin } from "../async/deadline.ts";
import type { ChildHandle, ExitInfo } from "./types.ts";

/** Options of {@link reapChild}. */
export interface ReapOptions {
  /** Wait after closing stdin before SIGTERM, ms; default 2000. */
  closeGraceMs?: number;
  /** Wait after SIGTERM before SIGKILL, ms; default 2000. */
  termGraceMs?: number;
  /** Skip the graces: SIGKILL at once. */
  immediate?: boolean;
  /** When it aborts during a grace, SIGKILL at once. */
  signal?: AbortSignal;
}

/**
 * Reap a child in steps: close stdin, wait, SIGTERM, wait, SIGKILL, and
 * always await its exit (`immediate`: SIGKILL at once; an aborted `signal`
 * cuts the graces short). Also releases stdout/stderr. Never rejects.
 */
export async function reapChild(child: ChildHandle, options: ReapOptions = {}): Promise<ExitInfo> {
  try {
    await child.stdin.close();
  } catch {
    // Already closed, or the writer is locked/broken: the pipe closes with the child.
  }
  if (options.immediate) child.kill("SIGKILL");
  const signal = options.signal;
  let info = options.immediate
    ? await child.exited
    : await waitWithin(child.exited, options.closeGraceMs ?? 2_000, { signal });
  if (info === undefined && !signal?.aborted) {
    child.kill("SIGTERM");
    info = await waitWithin(child.exited, options.termGraceMs ?? 2_000, { signal });
  }
  if (info === undefined) {
    child.kill("SIGKILL");
    info = await child.exited;
  }
  for (const stream of [child.stdout, child.stderr]) {
    if (stream === null) continue;
    try {
      if (!stream.locked) await stream.cancel();
    } catch {
      // Already released.
    }
  }
  return info;
}
