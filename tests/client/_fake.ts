/** The kit's fake backend with a client attached (test helper). */

import { LocalAgentClient } from "../../src/client/client.ts";
import { type ChildHandle, reapChild, spawnChild } from "../../src/runtime/mod.ts";
import { FAKE_BACKEND, fakeChild, optionsFromEnv } from "../_kit/mod.ts";

export { FAKE_BACKEND };

/** A fake backend child and its client. */
export interface FakeConnection {
  child: ChildHandle;
  client: LocalAgentClient;
  /** Close the client and reap the child quickly. */
  dispose(): Promise<void>;
}

/**
 * Modes that need a real process: `stall` ignores SIGTERM, which only a process can (an
 * in-memory child exits on any signal).
 */
const PROCESS_MODES = new Set(["stall"]);

/**
 * Start the fake backend in `mode` with its `FAKE_*` variables `env`: served in this process
 * over in-memory pipes, or as a child process for {@link PROCESS_MODES}.
 */
export function startFake(mode: string, env: Record<string, string> = {}): FakeConnection {
  const child = PROCESS_MODES.has(mode)
    ? spawnChild(Deno.execPath(), ["run", "-A", FAKE_BACKEND, mode], {
      env: { ...env, NO_COLOR: "1" },
    })
    : fakeChild(optionsFromEnv(mode, (name) => env[name]));
  const client = new LocalAgentClient(child, { exitWaitMs: 5_000 });
  return {
    child,
    client,
    async dispose() {
      await client.close();
      await reapChild(child, { closeGraceMs: 500, termGraceMs: 500 });
    },
  };
}
