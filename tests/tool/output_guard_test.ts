import assert from "node:assert/strict";
import process from "node:process";
import { guardOutput, ToolExitAttempt } from "../../src/tool/output_guard.ts";

Deno.test("guardOutput() makes Deno.exit and process.exit throw until restored", () => {
  const exit = Deno.exit;
  const processExit = process.exit;
  const guard = guardOutput();
  try {
    assert.throws(() => Deno.exit(3), (e: unknown) => e instanceof ToolExitAttempt && e.code === 3);
    assert.throws(() => process.exit(4), ToolExitAttempt);
  } finally {
    guard.restore();
    guard.restore();
  }
  assert.equal(Deno.exit, exit);
  assert.equal(process.exit, processExit);
});

Deno.test("guardOutput() sends Deno.stdout writes to stderr and restores them", () => {
  const writeSync = Deno.stdout.writeSync;
  const guard = guardOutput();
  try {
    assert.notEqual(Deno.stdout.writeSync, writeSync);
    assert.equal(Deno.stdout.writeSync(new Uint8Array(0)), 0);
  } finally {
    guard.restore();
  }
  assert.equal(Deno.stdout.writeSync, writeSync);
});
