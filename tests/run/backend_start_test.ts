import assert from "node:assert/strict";
import { discardBackend, startBackend } from "../../src/run/backend_start.ts";

Deno.test("startBackend() returns the spawn error instead of throwing", async () => {
  const start = startBackend(
    { command: "/nonexistent/magi-code", args: [], source: "flag", label: "magi-code" },
    { cwd: Deno.cwd() },
  );
  assert.equal(start.child, undefined);
  assert.ok(start.error instanceof Error);
  await discardBackend(start); // Nothing to stop: resolves.
});

Deno.test("discardBackend() ends an unused backend that waits on stdin and reaps it", async () => {
  const start = startBackend({
    command: Deno.execPath(),
    args: ["eval", "for await (const _ of Deno.stdin.readable) {}"],
    source: "flag",
    label: "deno",
  }, { cwd: Deno.cwd() });
  assert.ok(start.child !== undefined);
  await discardBackend(start);
  assert.equal(start.child.hasExited, true);
  assert.deepEqual(await start.child.exited, { code: 0, signal: null });
});
