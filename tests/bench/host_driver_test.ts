import assert from "node:assert/strict";
import { measureHost, startTaskV8Flags } from "../../bench/harness/host_driver.ts";

Deno.test("startTaskV8Flags() returns the start task's --v8-flags arguments", () => {
  const denoJson = JSON.stringify({
    tasks: { start: "deno run --no-prompt --v8-flags=--max-semi-space-size=4 --allow-read cli.ts" },
  });
  assert.deepEqual(startTaskV8Flags(denoJson), ["--v8-flags=--max-semi-space-size=4"]);
});

Deno.test("startTaskV8Flags() returns none for a start task without V8 flags", () => {
  const denoJson = JSON.stringify({ tasks: { start: "deno run --allow-read cli.ts" } });
  assert.deepEqual(startTaskV8Flags(denoJson), []);
});

Deno.test("startTaskV8Flags() throws when deno.json has no start task", () => {
  assert.throws(() => startTaskV8Flags(JSON.stringify({ tasks: {} })), {
    message: "deno.json has no `start` task",
  });
});

Deno.test("startTaskV8Flags() reads this repository's deno.json", async () => {
  const text = await Deno.readTextFile(new URL("../../deno.json", import.meta.url));
  const start = (JSON.parse(text) as { tasks: { start: string } }).tasks.start;
  const flags = startTaskV8Flags(text);
  for (const flag of flags) assert.ok(start.includes(flag), flag);
  assert.equal(flags.length, start.split("--v8-flags=").length - 1);
});

Deno.test("measureHost({ otel: true }) runs the host with telemetry on and its calls succeed", async () => {
  const result = await measureHost({
    toolDir: new URL("../../bench/harness/host_tools", import.meta.url).pathname,
    tool: "trivial",
    calls: 20,
    warmup: 2,
    concurrency: 1,
    rssEvery: 0,
    otel: true,
  });
  assert.equal(result.exit_code, 0);
  assert.equal(result.backend.calls, 20);
  assert.equal(result.backend.failed_calls, 0);
});
