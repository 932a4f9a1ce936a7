import assert from "node:assert/strict";
import { buildRows, renderTable } from "../../bench/report.ts";
import type { PlacementResults, Throughput } from "../../bench/suite.ts";

function t(callsPerSec: number, resultBytes = 5): Throughput {
  const latency = { count: 10, p50: 0.5, p99: 1, mean: 0.6, min: 0.4, max: 1.2 };
  return { callsPerSec, latency, resultBytes };
}

const RESULTS: PlacementResults = {
  placement: { cpus: "0", label: "1 CPU" },
  host: {
    "trivial/1": t(3000),
    "trivial/4": t(5000),
    "blob_60k/1": t(300, 61440),
    "blob_60k/4": t(400, 61440),
    "blob_1m/1": t(30, 1048576),
    "blob_1m/4": t(20, 1048576),
  },
  mcp: {
    "trivial/1": t(2000),
    "trivial/4": t(4000),
    "blob_60k/1": t(600, 61440),
    "blob_60k/4": t(800, 61440),
    "blob_1m/1": t(15, 1048576),
    "blob_1m/4": t(15, 1048576),
  },
  isolated: {},
  isolatedNoKernel: {},
  isolatedLevel: null,
  isolatedNote: "the tool ran inside the host process",
  echo: { "1": t(5000), "4": t(20000) },
  hostReadyMs: { "1": 100, "32": 90 },
  mcpReadyMs: { "1": 140, "32": 150 },
  hostPeakKb: { "startup/32": 70000, "trivial/4": 80000, "blob_1m/4": 90000 },
  rss: [{ calls: 0, rss: 100_000 }, { calls: 100_000, rss: 106_000 }],
  rssCallsPerSec: 5000,
};

function rowOf(measurement: string) {
  const row = buildRows([RESULTS]).find((r) => r.measurement.startsWith(measurement));
  assert.ok(row, measurement);
  return row;
}

Deno.test("buildRows() checks trivial calls against the MCP SDK and the echo limit", () => {
  const seq = rowOf("Trivial call (5 B), sequential");
  assert.equal(seq.ratio, "1.50x; 60%");
  assert.equal(seq.result, "PASS; PASS");
  const c4 = rowOf("Trivial call (5 B), concurrency 4");
  assert.equal(c4.ratio, "1.25x; 25%");
  assert.equal(c4.result, "MISS; MISS");
});

Deno.test("buildRows() checks 1 MiB MB/s, startup with 32 tools and RSS flatness", () => {
  assert.equal(rowOf("1 MiB result (64 parts), sequential").result, "PASS");
  assert.equal(rowOf("1 MiB result (64 parts), concurrency 4").result, "MISS");
  const startup = rowOf("Startup, 32 tools");
  assert.equal(startup.ratio, "60%");
  assert.equal(startup.result, "PASS");
  assert.equal(rowOf("Startup, 1 tool").result, "—");
  const rss = rowOf("Host RSS over the memory test");
  assert.equal(rss.ratio, "+6.0%");
  assert.equal(rss.result, "MISS");
});

Deno.test("buildRows() marks isolated tools as not yet available, with the reason", () => {
  assert.match(
    rowOf("Trivial call, isolated tool").host,
    /^not yet available \(the tool ran inside the host process\)$/,
  );
});

Deno.test("buildRows() shows isolated calls against inline ones when measured", () => {
  const rows = buildRows([{ ...RESULTS, isolated: { "1": t(1500) }, isolatedNote: null }]);
  const row = rows.find((r) => r.measurement.startsWith("Trivial call, isolated tool"));
  assert.match(row?.host ?? "", /^1,500 calls\/s .*; 50% of inline$/);
});

Deno.test("buildRows() checks isolated calls against issue 6's 2.5x of inline, per mode", () => {
  const rows = buildRows([{
    ...RESULTS,
    isolated: { "1": t(1200), "4": t(1000) },
    isolatedNote: null,
  }]);
  const [seq, c4] = rows.filter((r) => r.measurement.startsWith("Trivial call, isolated tool"));
  // Sequential: 1,200 of 3,000 inline calls/s is exactly 40%, the bound itself.
  assert.equal(seq?.target, "isolated ≤ 2.5x inline");
  assert.equal(seq?.ratio, "2.50x");
  assert.equal(seq?.result, "PASS");
  // Concurrency 4: 1,000 of 5,000 inline calls/s is 20%.
  assert.equal(c4?.ratio, "5.00x");
  assert.equal(c4?.result, "MISS");
});

Deno.test("buildRows() gives unmeasured isolated rows no verdict", () => {
  const row = rowOf("Trivial call, isolated tool");
  assert.equal(row.target, "—");
  assert.equal(row.result, "—");
});

Deno.test("renderTable() renders one header, a separator and one line per row", () => {
  const rows = buildRows([RESULTS]);
  const lines = renderTable(rows).trimEnd().split("\n");
  assert.equal(lines.length, rows.length + 2);
  assert.match(lines[0]!, /^\| Measurement \| Placement \|/);
  assert.ok(lines.every((line) => line.startsWith("| ") && line.endsWith(" |")));
});
