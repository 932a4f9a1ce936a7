import assert from "node:assert/strict";
import { buildRows, renderDocument, renderSummary, renderTable } from "../../bench/report.ts";
import type { PlacementResults, Throughput } from "../../bench/suite.ts";
import type { MachineInfo } from "../../bench/machine.ts";

function t(callsPerSec: number, resultBytes = 5, cpuUs?: Record<string, number>): Throughput {
  const latency = { count: 10, p50: 0.5, p99: 1, mean: 0.6, min: 0.4, max: 1.2 };
  return { callsPerSec, latency, resultBytes, ...(cpuUs === undefined ? {} : { cpuUs }) };
}

// Synthetic numbers chosen so that each target sits on or near its bound, and the faster SDK
// column is sometimes the Deno-run one, sometimes the Node.js one.
const RESULTS: PlacementResults = {
  placement: { cpus: "0", label: "1 CPU" },
  host: {
    "trivial/1": t(3000, 5, { host: 60, fixture: 50 }),
    "trivial/4": t(5000, 5, { host: 50, fixture: 30 }),
    "blob_60k/1": t(300, 61440),
    "blob_60k/4": t(400, 61440),
    "blob_1m/1": t(30, 1048576),
    "blob_1m/4": t(20, 1048576),
  },
  mcp: {
    "trivial/1": t(2000, 5, { server: 100, client: 40 }),
    "trivial/4": t(4000, 5, { server: 60, client: 30 }),
    "blob_60k/1": t(600, 61440),
    "blob_60k/4": t(300, 61440),
    "blob_1m/1": t(15, 1048576),
    "blob_1m/4": t(15, 1048576),
  },
  mcpNode: {
    "trivial/1": t(1500, 5, { server: 90, client: 45 }),
    "trivial/4": t(4500),
    "blob_60k/1": t(250, 61440),
    "blob_60k/4": t(400, 61440),
    "blob_1m/1": t(20, 1048576),
    "blob_1m/4": t(10, 1048576),
  },
  isolated: {},
  isolatedNoKernel: {},
  isolatedLevel: null,
  isolatedNote: "the tool ran inside the host process",
  echo: { "1": t(5000, 0, { parent: 20, child: 15 }), "4": t(20000) },
  hostReadyMs: { "1": 100, "32": 90 },
  mcpReadyMs: { "1": 200, "32": 150 },
  mcpNodeReadyMs: { "1": 120, "32": 160 },
  hostPeakKb: { "startup/32": 70000, "trivial/4": 80000, "blob_1m/4": 90000, memory: 90000 },
  rss: [{ calls: 0, rss: 100_000 }, { calls: 100_000, rss: 106_000 }],
  rssCallsPerSec: 5000,
};

function rowOf(measurement: string, results = RESULTS) {
  const row = buildRows([results]).find((r) => r.measurement.startsWith(measurement));
  assert.ok(row, measurement);
  return row;
}

Deno.test("buildRows() checks trivial calls: rate vs the faster SDK, CPU vs the leaner server", () => {
  const seq = rowOf("Trivial call (5 B), sequential");
  assert.equal(seq.target, "≥ 1.0x the SDK; host CPU ≤ 0.67x the SDK server's");
  // The leaner server is the Node.js one (90 µs against 100), though the Deno SDK is faster.
  assert.equal(seq.ratio, "1.50x vs Deno SDK; 0.67x of Node.js SDK server (60.0 / 90.0 µs)");
  assert.equal(seq.result, "PASS; PASS");
  assert.match(seq.mcpNode, /^1,500 calls\/s/);
  assert.equal(seq.cpu, "60.0, 50.0 / 100, 40.0 / 90.0, 45.0 / 20.0, 15.0");
  const c4 = rowOf("Trivial call (5 B), concurrency 4");
  assert.equal(c4.ratio, "1.11x vs Node.js SDK; 0.83x of Deno SDK server (50.0 / 60.0 µs)");
  assert.equal(c4.result, "PASS; MISS");
  assert.equal(c4.cpu, "50.0, 30.0 / 60.0, 30.0 / n/a / n/a");
});

Deno.test("buildRows() checks 60 KiB and 1 MiB results at 1.0x the faster SDK", () => {
  const k60 = rowOf("60 KiB result, sequential");
  assert.equal(k60.target, "≥ 1.0x the SDK");
  assert.equal(k60.ratio, "0.50x vs Deno SDK");
  assert.equal(k60.result, "MISS");
  const k60c4 = rowOf("60 KiB result, concurrency 4");
  assert.equal(k60c4.ratio, "1.00x vs Node.js SDK");
  assert.equal(k60c4.result, "PASS");
  const m1 = rowOf("1 MiB result (64 parts), sequential");
  assert.equal(m1.target, "≥ 1.0x the SDK");
  assert.equal(m1.ratio, "1.50x vs Node.js SDK");
  assert.equal(m1.result, "PASS");
  const m1c4 = rowOf("1 MiB result (64 parts), concurrency 4");
  assert.equal(m1c4.ratio, "1.33x vs Deno SDK");
  assert.equal(m1c4.result, "PASS");
});

Deno.test("buildRows() shows a large result's own I/O in the echo column when it was measured", () => {
  const withEcho: PlacementResults = {
    ...RESULTS,
    echo: { ...RESULTS.echo, "blob_60k/4": t(2000, 61440, { parent: 30, child: 60 }) },
  };
  const measured = rowOf("60 KiB result, concurrency 4", withEcho);
  assert.match(measured.echo, /^2,000 calls\/s, 123 MB\/s/);
  assert.equal(measured.cpu, "n/a / n/a / n/a / 30.0, 60.0");
  // Rows of runs saved before it was measured keep the dash, and no echo CPU pair.
  const older = rowOf("60 KiB result, sequential", withEcho);
  assert.equal(older.echo, "—");
  assert.equal(older.cpu, "n/a / n/a / n/a");
});

Deno.test("buildRows() checks startup with 1 and 32 tools against the faster SDK's tools/list", () => {
  const one = rowOf("Startup, 1 tool");
  assert.equal(one.target, "≤ 100% of the SDK");
  assert.equal(one.ratio, "83% of Node.js SDK");
  assert.equal(one.result, "PASS");
  assert.equal(one.mcpNode, "120 ms");
  const many = rowOf("Startup, 32 tools", { ...RESULTS, hostReadyMs: { "32": 151 } });
  assert.equal(many.ratio, "101% of Deno SDK");
  assert.equal(many.result, "MISS");
});

Deno.test("buildRows() checks cold isolated calls against 2x inline", () => {
  const measured = {
    ...RESULTS,
    isolatedNote: null,
    coldCallMs: { inline: 4, isolated: 8 },
    callMs: { inline: 1000, isolated: 2001 },
  };
  const cold = rowOf("First call after host.ready (cold)", measured);
  assert.equal(cold.host, "8.00 ms / 4.00 ms");
  assert.equal(cold.target, "≤ 2x inline");
  assert.equal(cold.ratio, "2.00x inline");
  assert.equal(cold.result, "PASS");
  const call = rowOf("`call` of the trivial tool end to end", measured);
  assert.equal(call.host, "2,001 ms / 1,000 ms");
  assert.equal(call.result, "MISS");
  const absent = rowOf("First call after host.ready (cold)");
  assert.equal(absent.host, "not measured (the tool ran inside the host process)");
  assert.equal(absent.result, "—");
});

Deno.test("buildRows() checks the memory test: growth within +5% and peak ≤ 80 MiB", () => {
  const rss = rowOf("Host RSS over the memory test");
  assert.equal(rss.target, "within +5%; peak ≤ 80 MiB");
  assert.equal(rss.ratio, "+6.0%; peak 87.9 MiB");
  assert.equal(rss.result, "MISS; MISS");
  const flat = rowOf("Host RSS over the memory test", {
    ...RESULTS,
    rss: [{ calls: 0, rss: 70_000 }, { calls: 100_000, rss: 73_500 }],
    hostPeakKb: { ...RESULTS.hostPeakKb, memory: 80 * 1024 },
  });
  assert.equal(flat.ratio, "+5.0%; peak 80.0 MiB");
  assert.equal(flat.result, "PASS; PASS");
  const noPeak = rowOf("Host RSS over the memory test", { ...RESULTS, hostPeakKb: {} });
  assert.equal(noPeak.result, "MISS; MISS");
  assert.match(noPeak.ratio, /peak not measured/);
});

Deno.test("buildRows() judges a run without the Node.js column against the Deno SDK alone", () => {
  const deno = rowOf("Trivial call (5 B), concurrency 4", {
    ...RESULTS,
    mcpNode: {},
    mcpNodeReadyMs: {},
  });
  assert.equal(deno.ratio, "1.25x vs Deno SDK; 0.83x of Deno SDK server (50.0 / 60.0 µs)");
  assert.equal(deno.mcpNode, "n/a");
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

Deno.test("buildRows() checks isolated calls against 2.5x of inline, per mode", () => {
  const rows = buildRows([{
    ...RESULTS,
    isolated: { "1": t(1200), "4": t(1000) },
    isolatedNote: null,
  }]);
  const [seq, c4] = rows.filter((r) => r.measurement.startsWith("Trivial call, isolated tool ("));
  // Sequential: 1,200 of 3,000 inline calls/s is exactly 40%, the bound itself.
  assert.equal(seq?.target, "≤ 2.5x inline");
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

Deno.test("buildRows() shows a first run that was not measured as not measured and MISS", () => {
  const absent = rowOf("First run of `demo`");
  assert.equal(absent.host, "not measured (not in this run)");
  assert.equal(absent.result, "MISS");
  const [missing] = buildRows([], {
    firstRun: { status: "not measured", reason: "scripts/first_run.ts missing" },
  });
  assert.equal(missing?.host, "not measured (scripts/first_run.ts missing)");
  assert.equal(missing?.ratio, "not measured (scripts/first_run.ts missing)");
  assert.equal(missing?.result, "MISS");
});

Deno.test("buildRows() passes the first run only when installed equals the demo's graph", () => {
  const [pass] = buildRows([], {
    firstRun: { status: "measured", installed: ["zod", "ajv"], graph: ["ajv", "zod"], seconds: 12 },
  });
  assert.equal(pass?.host, "2 installed, 2 in the demo's graph (12.0 s)");
  assert.equal(pass?.target, "downloads only the packages the demo imports");
  assert.equal(pass?.result, "PASS");
  const [miss] = buildRows([], {
    firstRun: { status: "measured", installed: ["zod", "express"], graph: ["zod"], seconds: 30 },
  });
  assert.equal(miss?.ratio, "2 installed, 1 in the graph; not in the graph: express");
  assert.equal(miss?.result, "MISS");
});

Deno.test("renderSummary() counts every target of every row once", () => {
  const rows = buildRows([RESULTS]);
  const verdicts = rows.flatMap((r) => r.result === "—" ? [] : r.result.split("; "));
  const pass = verdicts.filter((v) => v === "PASS").length;
  const miss = verdicts.filter((v) => v === "MISS").length;
  assert.equal(pass + miss, rows.reduce((n, r) => n + r.checks.length, 0));
  // trivial 3 PASS of 4; 60 KiB 1 of 2; 1 MiB 2 of 2; startup 2 of 2; memory 0 of 2; first run
  // 0 of 1; the cold rows are not measured (no verdict).
  assert.equal(renderSummary(rows), "Targets: 8 PASS, 5 MISS.");
  assert.equal(pass, 8);
});

Deno.test("renderTable() renders one header, a separator and one line per row", () => {
  const rows = buildRows([RESULTS]);
  const lines = renderTable(rows).trimEnd().split("\n");
  assert.equal(lines.length, rows.length + 2);
  assert.match(
    lines[0]!,
    /^\| Measurement \| Placement \| magi-tools host \(inline tools\) \| MCP SDK \(server run with Deno\) \| MCP SDK \(server and client on Node\.js\) \| NDJSON echo \(limit\) \| CPU per call, µs: host, fixture \/ Deno SDK server, client \/ Node\.js SDK server, client \/ echo parent, child \| Target \| Ratio \| Result \|$/,
  );
  assert.ok(lines.every((line) => line.startsWith("| ") && line.endsWith(" |")));
  assert.ok(lines.every((line) => line.split(" | ").length === 10), "ten columns in every line");
});

Deno.test("renderDocument() puts the summary under the table and names both SDK versions", () => {
  const machine: MachineInfo = {
    nproc: 2,
    cpuModel: "test CPU",
    memoryMib: 1024,
    deno: "deno 2.9.6",
    node: "v20.20.2",
    mcpSdk: "1.32.2",
    mcpSdkNode: "1.32.2",
    loadavg: [0.1, 0.2, 0.3],
    date: "2026-12-01T00:00:00.000Z",
  };
  const rows = buildRows([RESULTS]);
  const text = renderDocument({
    machine,
    loadAfter: [0.1, 0.2, 0.3],
    quiet: true,
    durationS: 100,
    rows,
    results: [RESULTS],
    notes: "## Notes\n",
  });
  assert.match(
    text,
    /@modelcontextprotocol\/sdk 1\.32\.2 \(Deno column\), 1\.32\.2 \(Node\.js column/,
  );
  const lines = text.split("\n");
  const lastRow = lines.findLastIndex((line) => line.startsWith("| "));
  // A blank line ends the table (a text line right after it would be read as one more row).
  assert.equal(lines[lastRow + 1], "");
  assert.equal(lines[lastRow + 2], "Targets: 8 PASS, 5 MISS.");
  assert.ok(text.endsWith("## Notes\n"));
});
