/** Spawn the fake backend fixture with a client attached (test helper). */

import { LocalAgentClient } from "../../src/client/client.ts";
import { type ChildHandle, reapChild, spawnChild } from "../../src/runtime/mod.ts";

/** Path of the fake backend fixture. */
export const FAKE_BACKEND = new URL("./fixtures/fake_backend.ts", import.meta.url).pathname;

/** A fake backend child and its client. */
export interface FakeConnection {
  child: ChildHandle;
  client: LocalAgentClient;
  /** Close the client and reap the child quickly. */
  dispose(): Promise<void>;
}

/** Start the fake backend in `mode`. */
export function startFake(mode: string, env: Record<string, string> = {}): FakeConnection {
  const child = spawnChild(Deno.execPath(), ["run", "-A", FAKE_BACKEND, mode], {
    env: { ...env, NO_COLOR: "1" },
  });
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
