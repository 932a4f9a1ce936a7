import assert from "node:assert/strict";
import * as node from "../../bench/node/harness.mjs";
import { generatedDescription, payloadText, RESULT_BYTES } from "../../bench/harness/payloads.ts";
import { runLoad } from "../../bench/harness/load.ts";
import { summarize } from "../../bench/harness/stats.ts";
import { parseCpuTimeMs } from "../../bench/harness/proc_status.ts";
import { ensureNodeSdk, NODE_DIR } from "../../bench/node_sdk.ts";

// The Node.js column must measure exactly what the Deno column measures: its plain-JavaScript
// helpers (bench/node/harness.mjs) are checked against the TypeScript originals.

Deno.test("Node.js harness: the same result sizes and texts as payloads.ts", () => {
  assert.deepEqual({ ...node.RESULT_BYTES }, { ...RESULT_BYTES });
  for (const bytes of [0, 1, 5, 36, 37, 38, 61_440, 1_048_576]) {
    assert.equal(node.payloadText(bytes), payloadText(bytes), `${bytes} bytes`);
  }
  for (const index of [0, 7, 31]) {
    assert.equal(node.generatedDescription(index), generatedDescription(index));
  }
});

Deno.test("Node.js harness: parseCpuTimeMs() and cpuMeter() agree with proc_status.ts", () => {
  for (
    const stat of [
      "42 (deno (x) y) S 1 2 3 4 5 6 7 8 9 10 150 50 0 0 20 0",
      "7 (node) R 1 2 3 4 5 6 7 8 9 10 3 4",
    ]
  ) {
    assert.equal(node.parseCpuTimeMs(stat), parseCpuTimeMs(stat));
    assert.equal(node.parseCpuTimeMs(stat, 1000), parseCpuTimeMs(stat, 1000));
  }
  assert.throws(() => node.parseCpuTimeMs("42 (node) S 1 2"), TypeError);
  let ticks = 100;
  const meter = node.cpuMeter(
    { server: () => 1, client: () => null },
    () => `1 (x) S 1 2 3 4 5 6 7 8 9 10 ${ticks} 0 0 0`,
  );
  meter.onTimed("start");
  ticks = 150; // 500 ms of CPU over the timed part
  meter.onTimed("end");
  assert.deepEqual(meter.perCall(100), { server: 5000 });
});

Deno.test("Node.js harness: summarize() agrees with stats.ts", () => {
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (const size of [1, 2, 99, 100, 1001]) {
    const samples = Array.from({ length: size }, () => random() * 10);
    assert.deepEqual(node.summarize(samples), summarize(samples), `${size} samples`);
  }
  assert.throws(() => node.summarize([]), RangeError);
});

Deno.test("Node.js harness: runLoad() keeps the same concurrency and warm-up as load.ts", async () => {
  for (const [count, concurrency, warmup] of [[10, 1, 0], [10, 4, 3], [3, 8, 2]]) {
    const trace = async (load: typeof runLoad) => {
      let inFlight = 0;
      let most = 0;
      let started = 0;
      let phases = "";
      const result = await load(
        async () => {
          started++;
          most = Math.max(most, ++inFlight);
          await new Promise((resolve) => setTimeout(resolve, 1));
          inFlight--;
        },
        count!,
        {
          concurrency: concurrency!,
          warmup: warmup!,
          onTimed: (phase) => void (phases += `${phase}@${started} `),
        },
      );
      return { most, started, timed: result.latencies.length, phases };
    };
    assert.deepEqual(await trace(node.runLoad), await trace(runLoad), `${count}/${concurrency}`);
  }
  await assert.rejects(node.runLoad(() => Promise.resolve(), 1, { concurrency: 0 }), RangeError);
});

Deno.test("Node.js harness: countFlag() names the flag it rejects", () => {
  assert.equal(node.countFlag("--calls", "2000"), 2000);
  assert.equal(node.countFlag("--warmup", "0", { allowZero: true }), 0);
  assert.throws(
    () => node.countFlag("--calls", "0"),
    /^RangeError: --calls must be a whole number ≥ 1: 0$/,
  );
  assert.throws(() => node.countFlag("--tools", "1.5"), /--tools must be a whole number ≥ 1: 1\.5/);
  assert.throws(() => node.countFlag("--concurrency", ""), /--concurrency must be/);
  assert.throws(
    () => node.countFlag("MCP_BENCH_TOOLS", "x"),
    /^RangeError: MCP_BENCH_TOOLS must be a whole number ≥ 1: x$/,
  );
});

async function nodeClient(args: string[]): Promise<Record<string, unknown>> {
  const result = await new Deno.Command("node", {
    args: [`${NODE_DIR}mcp_client.mjs`, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(result.stderr);
  assert.equal(result.code, 0, stderr);
  return JSON.parse(new TextDecoder().decode(result.stdout).trim()) as Record<string, unknown>;
}

Deno.test({
  name: "Node.js MCP driver: calls and startup against the Node.js server, as the suite runs them",
  // Installs bench/node with npm ci on first use, as `deno task bench` does.
  fn: async () => {
    assert.equal(await ensureNodeSdk({ denoSdkVersion: "1.32.2" }), "1.32.2");
    for (const tool of ["trivial", "blob_1m"] as const) {
      const calls = await nodeClient([
        "--mode=calls",
        `--tool=${tool}`,
        "--calls=5",
        "--warmup=1",
        "--concurrency=2",
      ]);
      assert.equal(calls.tool, tool);
      assert.equal(calls.result_bytes, RESULT_BYTES[tool]);
      assert.equal(calls.calls, 5);
      assert.equal((calls.latency_ms as { count: number }).count, 5);
      assert.ok((calls.elapsed_ms as number) > 0);
    }
    const startup = await nodeClient(["--mode=startup", "--tools=3"]);
    assert.equal(startup.tools, 3);
    assert.ok((startup.ready_ms as number) > 0);
    const bad = await new Deno.Command("node", {
      args: [`${NODE_DIR}mcp_client.mjs`, "--mode=calls", "--tool=nope"],
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.notEqual(bad.code, 0);
    assert.match(
      new TextDecoder().decode(bad.stderr),
      /--tool must be one of trivial, blob_60k, blob_1m: nope/,
    );
  },
});
