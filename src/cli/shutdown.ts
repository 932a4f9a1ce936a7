/**
 * Closing the backend: a clean `shutdown` then EOF, or at once after a hard
 * stop or a failure; the child is always reaped.
 *
 * @module
 */

import type { LocalAgentClient } from "../client/client.ts";
import { type ChildHandle, reapChild } from "../runtime/mod.ts";
import type { StopState } from "./stop.ts";

/** Shut the backend down and reap it; never throws. */
export async function closeBackend(
  client: LocalAgentClient,
  child: ChildHandle,
  stop: StopState,
): Promise<void> {
  if (stop.hard.signal.aborted || client.failure !== null) {
    await client.close();
    await reapChild(
      child,
      stop.hard.signal.aborted ? { immediate: true } : {
        closeGraceMs: 1_000,
        termGraceMs: 2_000,
      },
    );
    return;
  }
  // Clean shutdown: shutdown request, then EOF (stdin closes), then the child exits.
  const bounded = AbortSignal.any([AbortSignal.timeout(5_000), stop.hard.signal]);
  try {
    await client.shutdown({ signal: bounded });
    await client.endInput();
    await Promise.race([
      client.done,
      new Promise((resolve) => bounded.addEventListener("abort", resolve, { once: true })),
    ]);
  } catch {
    // Failed or timed out: the reaper below escalates.
  }
  await client.close();
  await reapChild(
    child,
    stop.hard.signal.aborted ? { immediate: true } : {
      closeGraceMs: 5_000,
      termGraceMs: 2_000,
    },
  );
}
