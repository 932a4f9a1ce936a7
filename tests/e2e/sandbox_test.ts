import assert from "node:assert/strict";
import { SIGINT_COALESCE_MS } from "../../src/run/stop.ts";
import { ofType, one, ROOT, runCli } from "./_cli.ts";
import { eventually } from "../_kit/mod.ts";
import { alive } from "../_kit/proc.ts";

const SANDBOX_TOOLS = `${ROOT}tests/e2e/fixtures/sandbox_tools`;
const WITH_SCENARIO = { MAGI_SCENARIO: `${ROOT}tests/e2e/fixtures/scenarios/sandbox.jsonc` };

function run(prompt: string, cwd: string, ...flags: string[]): string[] {
  return ["run", "--tools", SANDBOX_TOOLS, "--cwd", cwd, ...flags, prompt];
}

function readPid(dir: string): number | null {
  try {
    return Number(Deno.readTextFileSync(`${dir}/out/loop.pid`));
  } catch {
    return null;
  }
}

Deno.test("run: SIGINT twice while a tool loops kills its process before the host exits", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-e2e-loop-" });
  await Deno.mkdir(`${dir}/out`); // The loop tool's write scope.
  try {
    let sent = 0;
    const result = await runCli(run("LOOP", dir), {
      env: WITH_SCENARIO,
      killAfterMs: 30_000,
      onRecord: (record, interrupt) => {
        if (record.type !== "tool.call") return;
        // Hard stop only once the tool is really spinning in its own process.
        void eventually(() => readPid(dir) !== null, 10_000).then(() => {
          interrupt();
          sent++;
          // A second Ctrl-C, not a forwarded copy of the first: after the coalescing window
          // (a minimum, not a synchronisation; 200 ms fell inside it, so how many SIGINTs
          // counted depended on the machine's load).
          setTimeout(() => {
            interrupt();
            sent++;
          }, SIGINT_COALESCE_MS + 250);
        });
      },
    });
    assert.equal(sent, 2, result.stderr);
    assert.equal(result.code, 130, result.stderr);
    const pid = readPid(dir);
    assert.ok(pid !== null && pid > 0, "the loop tool never wrote its pid");
    // The host exited; a killed child may take a moment to be reaped by init.
    assert.ok(await eventually(() => !alive(pid), 2_000), `tool process ${pid} outlived the host`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: --timeout kills a looping tool after the grace: cancelled, killed, process gone", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-e2e-loop-" });
  await Deno.mkdir(`${dir}/out`); // The loop tool's write scope.
  try {
    const result = await runCli(run("LOOP", dir, "--timeout", "1"), {
      env: WITH_SCENARIO,
      killAfterMs: 30_000,
    });
    assert.equal(result.code, 1, result.stderr);
    const tool = one(result.records, "tool.result");
    assert.equal(tool.outcome, "cancelled");
    assert.equal(tool.killed, true);
    assert.equal(tool.abandoned, false);
    assert.equal(one(result.records, "turn.finished").cancelled_by, "timeout");
    const pid = readPid(dir);
    assert.ok(pid !== null && pid > 0, "the loop tool never wrote its pid");
    assert.ok(await eventually(() => !alive(pid), 2_000), `tool process ${pid} outlived the host`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: a tool's console and stdout output becomes a tool.log record, never raw stdout", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-e2e-log-" });
  try {
    const result = await runCli(run("CHATTY", dir), { env: WITH_SCENARIO });
    assert.equal(result.code, 0, result.stderr);
    // runCli parsed every stdout line as a valid summary record.
    const log = one(result.records, "tool.log");
    const call = one(result.records, "tool.call");
    assert.equal(log.call_id, call.call_id);
    assert.equal(log.run_id, call.run_id);
    assert.equal(log.name, "chatty");
    assert.match(String(log.text), /chatty: hello on console\.log\n/);
    assert.match(String(log.text), /chatty: hello on console\.error\n/);
    assert.match(String(log.text), /chatty: raw stdout\n/);
    assert.equal(log.bytes, new TextEncoder().encode(String(log.text)).length);
    assert.equal(log.truncated_bytes, 0);
    const results = ofType(result.records, "tool.result");
    assert.equal(results.length, 1);
    assert.equal(results[0]!.killed, false);
    assert.ok(result.records.indexOf(log) < result.records.indexOf(results[0]!));
    assert.doesNotMatch(result.stderr, /chatty:/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
