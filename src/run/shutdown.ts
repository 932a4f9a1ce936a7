/**
 * Closing the backend: a clean `shutdown` then EOF, or at once after a hard
 * stop or a failure; the child is always reaped.
 *
 * @module
 */

import { settleWithin } from "../async/deadline.ts";
import type { LocalAgentClient } from "../client/client.ts";
import { type ChildHandle, reapChild } from "../runtime/mod.ts";
import type { StopState } from "./stop.ts";

/**
 * Shut the backend down and reap it; never throws. Clean path: `shutdown`
 * (at most `SHUTDOWN_ANSWER_MS`), EOF, wait for its output to end (at most
 * `DRAIN_MS`), then reap. After a hard stop: SIGKILL at once. After a client
 * failure or an unanswered shutdown: short graces. A hard stop during any
 * wait (second SIGINT) cuts it short.
 */
export async function closeBackend(
  client: LocalAgentClient,
  child: ChildHandle,
  stop: StopState,
): Promise<void> {
  const hard = stop.hard.signal;
  let acknowledged = false;
  if (!hard.aborted && client.failure === null) {
    const answer = client.shutdown().then(() => {
      acknowledged = true;
    });
    await settleWithin(answer, SHUTDOWN_ANSWER_MS, { signal: hard });
    if (acknowledged) {
      await settleWithin(client.endInput(), DRAIN_MS, { signal: hard });
      await settleWithin(client.done, DRAIN_MS, { signal: hard });
    }
  }
  await client.close();
  await reapChild(
    child,
    hard.aborted ? { immediate: true } : {
      closeGraceMs: acknowledged ? DRAIN_MS : 1_000,
      termGraceMs: acknowledged ? 2_000 : 1_000,
      signal: hard,
    },
  );
}

/** How long the backend may take to answer `shutdown`. */
const SHUTDOWN_ANSWER_MS = 3_000;
/** Output draining and cleanup after `shutdown` (the backend's 2,000 ms bounds, twice). */
const DRAIN_MS = 4_000;
