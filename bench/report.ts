/**
 * Results → the one benchmark table (Markdown), with each target's ratio and
 * PASS/MISS, and the full `docs/benchmarks.md` text.
 *
 * @module
 */

import type { MachineInfo } from "./machine.ts";
import { formatNumber, percentChange, verdict } from "./harness/stats.ts";
import type { PlacementResults, Throughput } from "./suite.ts";

/** One table row. */
export interface Row {
  /** What is measured. */
  measurement: string;
  /** CPU placement label. */
  placement: string;
  /** magi-tools host (inline tools). */
  host: string;
  /** MCP SDK server + client. */
  mcp: string;
  /** NDJSON echo child. */
  echo: string;
  /** Target(s), `; `-separated. */
  target: string;
  /** Measured ratio(s). */
  ratio: string;
  /** PASS/MISS per target. */
  result: string;
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

function mib(kb: number | undefined): string {
  return kb === undefined ? "n/a" : `${formatNumber(kb / 1024)} MiB`;
}

interface Check {
  target: string;
  ratio: number;
  shown: string;
  pass: boolean;
}

function times(target: string, ratio: number, atLeast: number): Check {
  return { target, ratio, shown: `${ratio.toFixed(2)}x`, ...pick(verdict(ratio, { atLeast })) };
}

function pick(v: { pass: boolean }): { pass: boolean } {
  return { pass: v.pass };
}

function row(
  base: Omit<Row, "target" | "ratio" | "result">,
  checks: Check[],
): Row {
  return {
    ...base,
    target: checks.length === 0 ? DASH : checks.map((c) => c.target).join("; "),
    ratio: checks.length === 0 ? DASH : checks.map((c) => c.shown).join("; "),
    result: checks.length === 0 ? DASH : checks.map((c) => (c.pass ? "PASS" : "MISS")).join("; "),
  };
}

/** Build the rows: measurements in order, each in every placement. */
export function buildRows(results: readonly PlacementResults[]): Row[] {
  const rows: Row[] = [];
  const each = (make: (r: PlacementResults) => Row) => results.forEach((r) => rows.push(make(r)));
  for (const c of [1, 4]) {
    const label = c === 1 ? "Trivial call (5 B), sequential" : "Trivial call (5 B), concurrency 4";
    each((r) => {
      const host = r.host[`trivial/${c}`];
      const mcp = r.mcp[`trivial/${c}`];
      const echo = r.echo[String(c)];
      const checks: Check[] = [];
      if (host && mcp) checks.push(times("≥ 1.5x MCP", host.callsPerSec / mcp.callsPerSec, 1.5));
      if (host && echo) {
        const share = host.callsPerSec / echo.callsPerSec;
        checks.push({
          target: "≥ 50% of echo",
          ratio: share,
          shown: `${(share * 100).toFixed(0)}%`,
          pass: verdict(share, { atLeast: 0.5 }).pass,
        });
      }
      return row({
        measurement: label,
        placement: r.placement.label,
        host: rate(host),
        mcp: rate(mcp),
        echo: rate(echo),
      }, checks);
    });
  }
  for (const c of [1, 4]) {
    each((r) => {
      const iso = r.isolated[String(c)];
      const inline = r.host[`trivial/${c}`];
      const share = iso && inline
        ? `; ${(iso.callsPerSec / inline.callsPerSec * 100).toFixed(0)}% of inline`
        : "";
      // Issue 6: an isolated trivial call costs at most 2.5x an inline one, i.e. isolated
      // calls/s ≥ 40% of inline calls/s in the same placement and mode.
      const checks: Check[] = [];
      if (iso && inline) {
        const slowdown = inline.callsPerSec / iso.callsPerSec;
        checks.push({
          target: "isolated ≤ 2.5x inline",
          ratio: slowdown,
          shown: `${slowdown.toFixed(2)}x`,
          pass: verdict(slowdown, { atMost: 2.5 }).pass,
        });
      }
      const level = r.isolatedLevel ? `, level ${r.isolatedLevel}` : "";
      return row({
        measurement: `Trivial call, isolated tool (\`isolation: "process"\`${level}), ${
          c === 1 ? "sequential" : "concurrency 4"
        }`,
        placement: r.placement.label,
        host: iso === undefined
          ? `not yet available (${r.isolatedNote ?? "not measured"})`
          : rate(iso) + share,
        mcp: DASH,
        echo: DASH,
      }, checks);
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
            c === 1 ? "sequential" : "concurrency 4"
          }`,
        placement: r.placement.label,
        host: plain === undefined
          ? `not measured (${r.isolatedNote ?? "not in this run"})`
          : rate(plain) + cost,
        mcp: DASH,
        echo: DASH,
      }, []);
    });
  }
  for (
    const [tool, label] of [["blob_60k", "60 KiB result"], ["blob_1m", "1 MiB result (64 parts)"]]
  ) {
    for (const c of [1, 4]) {
      each((r) => {
        const host = r.host[`${tool}/${c}`];
        const mcp = r.mcp[`${tool}/${c}`];
        const checks = tool === "blob_1m" && host && mcp
          ? [times("MB/s ≥ 1.5x MCP", host.callsPerSec / mcp.callsPerSec, 1.5)]
          : [];
        return row({
          measurement: `${label}, ${c === 1 ? "sequential" : "concurrency 4"}`,
          placement: r.placement.label,
          host: rate(host),
          mcp: rate(mcp),
          echo: DASH,
        }, checks);
      });
    }
  }
  for (const tools of [1, 32]) {
    each((r) => {
      const host = r.hostReadyMs[String(tools)];
      const mcp = r.mcpReadyMs[String(tools)];
      const checks: Check[] = [];
      if (tools === 32 && host !== undefined && mcp !== undefined) {
        const ratio = host / mcp;
        checks.push({
          target: "≤ 60% of MCP",
          ratio,
          shown: `${(ratio * 100).toFixed(0)}%`,
          pass: verdict(ratio, { atMost: 0.6 }).pass,
        });
      }
      return row({
        measurement: `Startup, ${tools} tool${
          tools === 1 ? "" : "s"
        }: spawn → host.ready / tools/list`,
        placement: r.placement.label,
        host: host === undefined ? "n/a" : `${formatNumber(host)} ms`,
        mcp: mcp === undefined ? "n/a" : `${formatNumber(mcp)} ms`,
        echo: DASH,
      }, checks);
    });
  }
  each((r) =>
    row({
      measurement: "Host peak RSS (VmHWM): startup 32 tools / trivial c4 / 1 MiB c4",
      placement: r.placement.label,
      host: [r.hostPeakKb["startup/32"], r.hostPeakKb["trivial/4"], r.hostPeakKb["blob_1m/4"]]
        .map(mib).join(" / "),
      mcp: DASH,
      echo: DASH,
    }, [])
  );
  each((r) => {
    const first = r.rss[0];
    const last = r.rss.at(-1);
    const checks: Check[] = [];
    let host = "n/a";
    if (first && last) {
      const change = percentChange(first.rss, last.rss);
      host = `${mib(first.rss)} → ${mib(last.rss)} (${last.calls.toLocaleString("en-US")} calls, ${
        formatNumber(r.rssCallsPerSec)
      } calls/s)`;
      checks.push({
        target: "RSS within 5%",
        ratio: change,
        shown: `${change >= 0 ? "+" : ""}${change.toFixed(1)}%`,
        pass: Math.abs(change) <= 5,
      });
    }
    return row({
      measurement: "Host RSS over the memory test (trivial, concurrency 4)",
      placement: r.placement.label,
      host,
      mcp: DASH,
      echo: DASH,
    }, checks);
  });
  return rows;
}

const HEADERS: [keyof Row, string][] = [
  ["measurement", "Measurement"],
  ["placement", "Placement"],
  ["host", "magi-tools host (inline tools)"],
  ["mcp", "MCP SDK (server run with Deno)"],
  ["echo", "NDJSON echo (limit)"],
  ["target", "Target"],
  ["ratio", "Ratio"],
  ["result", "Result"],
];

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

/** The whole `docs/benchmarks.md`: header, machine, table, RSS samples, then `notes`. */
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
    `- Versions: ${m.deno}; node ${m.node}; @modelcontextprotocol/sdk ${m.mcpSdk}`,
    `- Load average (1/5/15 min) before: ${load(m.loadavg)}, after: ${load(options.loadAfter)}: ` +
    (options.quiet
      ? "taken on a quiet machine."
      : "taken on a SHARED machine (other work was running); treat the numbers as lower bounds."),
    "",
    renderTable(options.rows),
    "Host RSS samples over the memory test:",
    "",
    renderRssSamples(options.results),
    options.notes,
  ].join("\n");
}
