/**
 * Results → the one benchmark table (Markdown), with each target's ratio and
 * PASS/MISS (judged by `targets.ts`, against the faster of the two MCP SDK
 * columns), the summary line under it, and the full `docs/benchmarks.md` text.
 *
 * @module
 */

import type { FirstRunResult } from "./first_run.ts";
import type { MachineInfo } from "./machine.ts";
import { formatNumber } from "./harness/stats.ts";
import type { PlacementResults, Throughput } from "./suite.ts";
import {
  type Check,
  coldVsInline,
  cpuVsSdkServer,
  fasterSdk,
  firstRunCheck,
  isolatedVsInline,
  memoryChecks,
  rateVsSdk,
  startupVsSdk,
  summaryLine,
} from "./targets.ts";

/** One table row. */
export interface Row {
  /** What is measured. */
  measurement: string;
  /** CPU placement label. */
  placement: string;
  /** magi-tools host (inline tools). */
  host: string;
  /** MCP SDK server + client, run with Deno. */
  mcp: string;
  /** MCP SDK server + client, run with Node.js. */
  mcpNode: string;
  /** NDJSON echo child. */
  echo: string;
  /** CPU per call of each process, µs: host, fixture / Deno SDK / Node.js SDK / echo. */
  cpu: string;
  /** Target(s), `; `-separated. */
  target: string;
  /** Measured ratio(s), each saying what it was compared with. */
  ratio: string;
  /** PASS/MISS per target. */
  result: string;
  /** The row's targets and verdicts ({@link summaryLine} counts them). */
  checks: readonly Check[];
}

/** Inputs of {@link buildRows} besides the per-placement results. */
export interface RunExtras {
  /**
   * The first run of `demo` (`scripts/first_run.ts`); `undefined` in runs
   * saved before the row existed, shown as not measured.
   */
  firstRun?: FirstRunResult | undefined;
}

const DASH = "—";

function rate(t: Throughput | undefined): string {
  if (t === undefined) return "n/a";
  const mb = t.resultBytes >= 1024
    ? `, ${formatNumber((t.callsPerSec * t.resultBytes) / 1e6)} MB/s`
    : "";
  return `${formatNumber(t.callsPerSec)} calls/s${mb} (p50 ${formatNumber(t.latency.p50)} / p99 ${
    formatNumber(t.latency.p99)
  } ms)`;
}

/** One column's CPU per call: the two processes' µs, `a, b` (`n/a` when not measured). */
function cpuPair(t: Throughput | undefined, a: string, b: string): string {
  const x = t?.cpuUs?.[a];
  const y = t?.cpuUs?.[b];
  if (x === undefined || y === undefined) return "n/a";
  return `${formatNumber(x)}, ${formatNumber(y)}`;
}

/** The CPU cell of a round-trip row: host, fixture / Deno SDK server, client / Node.js / echo. */
function cpuCell(
  host: Throughput | undefined,
  mcp?: Throughput,
  node?: Throughput,
  echo?: Throughput,
): string {
  const parts = [cpuPair(host, "host", "fixture")];
  if (mcp !== undefined || node !== undefined) {
    parts.push(cpuPair(mcp, "server", "client"), cpuPair(node, "server", "client"));
  }
  if (echo !== undefined) parts.push(cpuPair(echo, "parent", "child"));
  return parts.join(" / ");
}

/** The SDK server that spends less CPU per call (the stricter comparison). */
function leanerServer(mcp: Throughput | undefined, node: Throughput | undefined) {
  return fasterSdk(mcp?.cpuUs?.server, node?.cpuUs?.server, "lower");
}

function mib(kb: number | undefined): string {
  return kb === undefined ? "n/a" : `${formatNumber(kb / 1024)} MiB`;
}

function ms(value: number | undefined): string {
  return value === undefined ? "n/a" : `${formatNumber(value)} ms`;
}

function row(
  base:
    & Omit<Row, "target" | "ratio" | "result" | "checks" | "mcp" | "mcpNode" | "echo" | "cpu">
    & { mcp?: string; mcpNode?: string; echo?: string; cpu?: string },
  checks: readonly (Check | undefined)[],
): Row {
  const kept = checks.filter((c): c is Check => c !== undefined);
  return {
    mcp: DASH,
    mcpNode: DASH,
    echo: DASH,
    cpu: DASH,
    ...base,
    target: kept.length === 0 ? DASH : kept.map((c) => c.target).join("; "),
    ratio: kept.length === 0 ? DASH : kept.map((c) => c.shown).join("; "),
    result: kept.length === 0 ? DASH : kept.map((c) => (c.pass ? "PASS" : "MISS")).join("; "),
    checks: kept,
  };
}

function mode(concurrency: number): string {
  return concurrency === 1 ? "sequential" : `concurrency ${concurrency}`;
}

/**
 * Build the rows: measurements in order, each in every placement, then the
 * first-run row. Every target of issue 27 is judged against the faster of
 * the two SDK columns ({@link fasterSdk}; CPU per call against the leaner SDK server).
 */
export function buildRows(results: readonly PlacementResults[], extras: RunExtras = {}): Row[] {
  const rows: Row[] = [];
  const each = (make: (r: PlacementResults) => Row) => results.forEach((r) => rows.push(make(r)));
  for (const c of [1, 4]) {
    each((r) => {
      const host = r.host[`trivial/${c}`];
      const mcp = r.mcp[`trivial/${c}`];
      const node = r.mcpNode[`trivial/${c}`];
      const echo = r.echo[String(c)];
      const sdk = fasterSdk(mcp?.callsPerSec, node?.callsPerSec, "higher");
      return row({
        measurement: `Trivial call (5 B), ${mode(c)}`,
        placement: r.placement.label,
        host: rate(host),
        mcp: rate(mcp),
        mcpNode: rate(node),
        echo: rate(echo),
        cpu: cpuCell(host, mcp, node, echo),
      }, [
        rateVsSdk(host?.callsPerSec, sdk, 1.0),
        cpuVsSdkServer(host?.cpuUs?.host, leanerServer(mcp, node)),
      ]);
    });
  }
  for (const c of [1, 4]) {
    each((r) => {
      // Telemetry's cost: the same trivial calls with OTEL_DENO=true, right after them.
      const on = r.telemetry?.[String(c)];
      const off = r.host[`trivial/${c}`]?.cpuUs?.["host"];
      const cpuOn = on?.cpuUs?.["host"];
      const cost = off !== undefined && cpuOn !== undefined
        ? `; host CPU/call ${cpuOn.toFixed(1)} µs vs ${off.toFixed(1)} µs off (${
          cpuOn >= off ? "+" : ""
        }${((cpuOn / off - 1) * 100).toFixed(0)}%)`
        : "";
      return row({
        measurement:
          `Trivial call with telemetry on (\`OTEL_DENO=true\`, exported to a loopback sink), ${
            mode(c)
          }`,
        placement: r.placement.label,
        host: on === undefined ? "not measured (not in this run)" : rate(on) + cost,
        cpu: on === undefined ? DASH : cpuCell(on),
      }, []);
    });
  }
  for (const c of [1, 4]) {
    each((r) => {
      const iso = r.isolated[String(c)];
      const inline = r.host[`trivial/${c}`];
      const share = iso && inline
        ? `; ${(iso.callsPerSec / inline.callsPerSec * 100).toFixed(0)}% of inline`
        : "";
      const level = r.isolatedLevel ? `, level ${r.isolatedLevel}` : "";
      return row({
        measurement: `Trivial call, isolated tool (\`isolation: "process"\`${level}), ${mode(c)}`,
        placement: r.placement.label,
        host: iso === undefined
          ? `not yet available (${r.isolatedNote ?? "not measured"})`
          : rate(iso) + share,
        cpu: iso === undefined ? DASH : cpuCell(iso),
      }, [isolatedVsInline(iso?.callsPerSec, inline?.callsPerSec)]);
    });
  }
  for (const c of [1, 4]) {
    each((r) => {
      // The kernel layer's cost: the same isolated calls with --no-kernel-sandbox, same run.
      const plain = r.isolatedNoKernel?.[String(c)];
      const kernel = r.isolated[String(c)];
      const cost = plain && kernel
        ? `; with the kernel layer: ${(kernel.callsPerSec / plain.callsPerSec * 100).toFixed(0)}%`
        : "";
      return row({
        measurement:
          `Trivial call, isolated tool without the kernel layer (\`--no-kernel-sandbox\`, level deno), ${
            mode(c)
          }`,
        placement: r.placement.label,
        host: plain === undefined
          ? `not measured (${r.isolatedNote ?? "not in this run"})`
          : rate(plain) + cost,
      }, []);
    });
  }
  const cold = [
    ["coldCallMs", "First call after host.ready (cold), trivial tool: isolated / inline"],
    ["callMs", "`call` of the trivial tool end to end (spawn → exit): isolated / inline"],
  ] as const;
  for (const [key, label] of cold) {
    each((r) => {
      const iso = r[key]?.["isolated"];
      const inline = r[key]?.["inline"];
      return row({
        measurement: label,
        placement: r.placement.label,
        host: iso === undefined || inline === undefined
          ? `not measured (${r.isolatedNote ?? "not in this run"})`
          : `${ms(iso)} / ${ms(inline)}`,
      }, [coldVsInline(iso, inline)]);
    });
  }
  const blobs = [["blob_60k", "60 KiB result", 1.0], [
    "blob_1m",
    "1 MiB result (64 parts)",
    1.0,
  ]] as const;
  for (const [tool, label, atLeast] of blobs) {
    for (const c of [1, 4]) {
      each((r) => {
        const host = r.host[`${tool}/${c}`];
        const mcp = r.mcp[`${tool}/${c}`];
        const node = r.mcpNode[`${tool}/${c}`];
        // The result's parts and answers alone (echo_parent.ts --result-bytes).
        const echo = r.echo[`${tool}/${c}`];
        // Same bytes per call on every side: the calls/s ratio is the MB/s ratio.
        const sdk = fasterSdk(mcp?.callsPerSec, node?.callsPerSec, "higher");
        return row({
          measurement: `${label}, ${mode(c)}`,
          placement: r.placement.label,
          host: rate(host),
          mcp: rate(mcp),
          mcpNode: rate(node),
          ...(echo === undefined ? {} : { echo: rate(echo) }),
          cpu: cpuCell(host, mcp, node, echo),
        }, [
          rateVsSdk(host?.callsPerSec, sdk, atLeast),
          cpuVsSdkServer(host?.cpuUs?.host, leanerServer(mcp, node)),
        ]);
      });
    }
  }
  for (const tools of [1, 32]) {
    each((r) => {
      const host = r.hostReadyMs[String(tools)];
      const mcp = r.mcpReadyMs[String(tools)];
      const node = r.mcpNodeReadyMs[String(tools)];
      return row({
        measurement: `Startup, ${tools} tool${
          tools === 1 ? "" : "s"
        }: spawn → host.ready / tools/list`,
        placement: r.placement.label,
        host: ms(host),
        mcp: ms(mcp),
        mcpNode: ms(node),
      }, [startupVsSdk(host, fasterSdk(mcp, node, "lower"))]);
    });
  }
  each((r) =>
    row({
      measurement: "Host peak RSS (VmHWM): startup 32 tools / trivial c4 / 1 MiB c4",
      placement: r.placement.label,
      host: [r.hostPeakKb["startup/32"], r.hostPeakKb["trivial/4"], r.hostPeakKb["blob_1m/4"]]
        .map(mib).join(" / "),
    }, [])
  );
  each((r) => {
    const first = r.rss[0];
    const last = r.rss.at(-1);
    const peak = r.hostPeakKb["memory"];
    const host = first && last
      ? `${mib(first.rss)} → ${mib(last.rss)}, peak ${mib(peak)} (${
        last.calls.toLocaleString("en-US")
      } calls, ${formatNumber(r.rssCallsPerSec)} calls/s)`
      : "n/a";
    return row({
      measurement: "Host RSS over the memory test (trivial, concurrency 4, after warm-up)",
      placement: r.placement.label,
      host,
    }, memoryChecks(first?.rss, last?.rss, peak));
  });
  const firstRun = extras.firstRun ?? { status: "not measured", reason: "not in this run" };
  rows.push(row({
    measurement: "First run of `demo` with an empty Deno cache: npm packages downloaded",
    placement: "one run, not pinned",
    host: firstRun.status === "measured"
      ? `${firstRun.installed.length} installed, ${firstRun.graph.length} in the demo's graph (${
        formatNumber(firstRun.seconds)
      } s)`
      : `not measured (${firstRun.reason})`,
  }, [firstRunCheck(firstRun)]));
  return rows;
}

const HEADERS: [Exclude<keyof Row, "checks">, string][] = [
  ["measurement", "Measurement"],
  ["placement", "Placement"],
  ["host", "magi-tools host (inline tools)"],
  ["mcp", "MCP SDK (server run with Deno)"],
  ["mcpNode", "MCP SDK (server and client on Node.js)"],
  ["echo", "NDJSON echo (limit)"],
  [
    "cpu",
    "CPU per call, µs: host, fixture / Deno SDK server, client / Node.js SDK server, client / echo parent, child",
  ],
  ["target", "Target"],
  ["ratio", "Ratio"],
  ["result", "Result"],
];

/** The summary line under the table: every target of every row counted once. */
export function renderSummary(rows: readonly Row[]): string {
  return summaryLine(rows.flatMap((r) => r.checks));
}

/** The rows as one Markdown table. */
export function renderTable(rows: readonly Row[]): string {
  const esc = (s: string) => s.replaceAll("|", "\\|");
  const lines = [
    `| ${HEADERS.map(([, h]) => h).join(" | ")} |`,
    `| ${HEADERS.map(() => "---").join(" | ")} |`,
  ];
  for (const r of rows) lines.push(`| ${HEADERS.map(([k]) => esc(r[k])).join(" | ")} |`);
  return lines.join("\n") + "\n";
}

/** The RSS samples of every placement as a short list. */
export function renderRssSamples(results: readonly PlacementResults[]): string {
  return results.map((r) =>
    `- ${r.placement.label}: ` +
    r.rss.map((s) => `${s.calls.toLocaleString("en-US")}: ${formatNumber(s.rss / 1024)}`)
      .join(", ") +
    " (calls: MiB)"
  ).join("\n") + "\n";
}

/**
 * The whole `docs/benchmarks.md`: header, machine, table, the PASS/MISS
 * summary, RSS samples, then `notes`.
 */
export function renderDocument(options: {
  machine: MachineInfo;
  loadAfter: [number, number, number];
  quiet: boolean;
  durationS: number;
  rows: readonly Row[];
  results: readonly PlacementResults[];
  notes: string;
}): string {
  const m = options.machine;
  const load = (l: [number, number, number]) => l.map((v) => v.toFixed(2)).join(" ");
  return [
    "# Benchmarks",
    "",
    "Generated by `deno task bench` (`bench/main.ts`); the notes after the table are kept in",
    "`bench/notes.md`. Do not edit the numbers by hand: run the suite again.",
    "",
    `- Date: ${m.date} (suite took ${options.durationS.toFixed(0)} s)`,
    `- Machine: ${m.nproc} CPUs (nproc), ${m.cpuModel}, ${formatNumber(m.memoryMib)} MiB memory`,
    `- Versions: ${m.deno}; node ${m.node}; @modelcontextprotocol/sdk ${m.mcpSdk} (Deno column), ${
      m.mcpSdkNode ?? "not installed"
    } (Node.js column, \`bench/node/package-lock.json\`)`,
    `- Load average (1/5/15 min) before: ${load(m.loadavg)}, after: ${load(options.loadAfter)}: ` +
    (options.quiet
      ? "taken on a quiet machine."
      : "taken on a SHARED machine (other work was running); treat the numbers as lower bounds."),
    "",
    renderTable(options.rows),
    renderSummary(options.rows),
    "",
    "Host RSS samples over the memory test:",
    "",
    renderRssSamples(options.results),
    options.notes,
  ].join("\n");
}
