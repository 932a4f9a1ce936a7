/**
 * Issue 18's targets as pure judgements: which SDK column a row is compared
 * with (the faster of the Deno-run and the Node.js-run SDK), and PASS/MISS
 * for each target. `bench/report.ts` puts the results in the table.
 *
 * | measurement | target |
 * | --- | --- |
 * | startup, 1 and 32 tools: spawn → `host.ready` | ≤ 60% of the SDK's spawn → `tools/list` |
 * | trivial call, sequential and concurrency 4 | ≥ 1.5x the SDK; ≥ 50% of the echo limit |
 * | 60 KiB result | ≥ 1.0x the SDK |
 * | 1 MiB result | ≥ 1.5x the SDK |
 * | isolated tool vs inline | ≤ 2.5x |
 * | host RSS over the memory test after warm-up | within +10%; peak ≤ 80 MiB |
 * | first run of `demo` with an empty Deno cache | downloads only the packages the demo imports |
 *
 * @module
 */

import { formatNumber, verdict } from "./harness/stats.ts";
import type { FirstRunResult } from "./first_run.ts";

/** The runtime an SDK column runs on. */
export type SdkRuntime = "Deno" | "Node.js";

/** One SDK column's measurement, chosen as the one to compare with. */
export interface SdkPick {
  /** Which column. */
  runtime: SdkRuntime;
  /** Its value (calls/s, or ms for startup). */
  value: number;
}

/**
 * The faster of the two SDK columns: the higher rate (`better: "higher"`,
 * calls/s) or the shorter time (`"lower"`, startup ms). A missing or
 * non-finite value never wins; a tie picks Deno. `undefined` when neither
 * column was measured.
 *
 * @example
 * ```ts
 * import { fasterSdk } from "./targets.ts";
 * console.assert(fasterSdk(5000, 6000, "higher")?.runtime === "Node.js");
 * console.assert(fasterSdk(140, 90, "lower")?.value === 90);
 * console.assert(fasterSdk(140, undefined, "lower")?.runtime === "Deno");
 * ```
 */
export function fasterSdk(
  deno: number | undefined,
  node: number | undefined,
  better: "higher" | "lower",
): SdkPick | undefined {
  const ok = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);
  if (!ok(deno)) return ok(node) ? { runtime: "Node.js", value: node } : undefined;
  if (!ok(node)) return { runtime: "Deno", value: deno };
  const nodeWins = better === "higher" ? node > deno : node < deno;
  return nodeWins ? { runtime: "Node.js", value: node } : { runtime: "Deno", value: deno };
}

/** One target of one row. */
export interface Check {
  /** The target as the table states it. */
  target: string;
  /** The Ratio cell's text: the measured ratio and what it was compared with. */
  shown: string;
  /** Whether the target is met. */
  pass: boolean;
}

/** The Ratio cell's name for an SDK column. */
function vs(pick: SdkPick): string {
  return `vs ${pick.runtime} SDK`;
}

/**
 * Host calls/s against the faster SDK column: PASS when the host's rate is
 * at least `atLeast` times the SDK's (1.5 for trivial calls and 1 MiB
 * results, 1.0 for 60 KiB results). `undefined` when a side is missing.
 *
 * @example
 * ```ts
 * import { rateVsSdk } from "./targets.ts";
 * const check = rateVsSdk(3000, { runtime: "Node.js", value: 2000 }, 1.5);
 * console.assert(check?.pass && check.shown === "1.50x vs Node.js SDK");
 * ```
 */
export function rateVsSdk(
  host: number | undefined,
  sdk: SdkPick | undefined,
  atLeast: number,
): Check | undefined {
  if (host === undefined || sdk === undefined) return undefined;
  const ratio = host / sdk.value;
  return {
    target: `≥ ${atLeast.toFixed(1)}x the SDK`,
    shown: `${ratio.toFixed(2)}x ${vs(sdk)}`,
    pass: verdict(ratio, { atLeast }).pass,
  };
}

/**
 * Host calls/s as a share of the echo limit's round trips/s: PASS at 50% or
 * more.
 *
 * @example
 * ```ts
 * import { shareOfEcho } from "./targets.ts";
 * console.assert(shareOfEcho(5000, 10000)?.pass === true);
 * console.assert(shareOfEcho(4999, 10000)?.shown === "50% of echo");
 * console.assert(shareOfEcho(4999, 10000)?.pass === false);
 * ```
 */
export function shareOfEcho(host: number | undefined, echo: number | undefined): Check | undefined {
  if (host === undefined || echo === undefined) return undefined;
  const share = host / echo;
  return {
    target: "≥ 50% of the echo limit",
    shown: `${(share * 100).toFixed(0)}% of echo`,
    pass: verdict(share, { atLeast: 0.5 }).pass,
  };
}

/**
 * Host spawn → `host.ready` against the faster SDK column's spawn →
 * `tools/list`: PASS at 60% or less.
 *
 * @example
 * ```ts
 * import { startupVsSdk } from "./targets.ts";
 * const check = startupVsSdk(60, { runtime: "Deno", value: 100 });
 * console.assert(check?.pass && check.shown === "60% of Deno SDK");
 * ```
 */
export function startupVsSdk(
  hostMs: number | undefined,
  sdk: SdkPick | undefined,
): Check | undefined {
  if (hostMs === undefined || sdk === undefined) return undefined;
  const ratio = hostMs / sdk.value;
  return {
    target: "≤ 60% of the SDK",
    shown: `${(ratio * 100).toFixed(0)}% of ${sdk.runtime} SDK`,
    pass: verdict(ratio, { atMost: 0.6 }).pass,
  };
}

/**
 * Isolated calls/s against inline calls/s of the same placement and mode
 * (issue 6): PASS when inline / isolated ≤ 2.5.
 *
 * @example
 * ```ts
 * import { isolatedVsInline } from "./targets.ts";
 * console.assert(isolatedVsInline(1200, 3000)?.pass === true);
 * console.assert(isolatedVsInline(1000, 3000)?.shown === "3.00x");
 * ```
 */
export function isolatedVsInline(
  isolated: number | undefined,
  inline: number | undefined,
): Check | undefined {
  if (isolated === undefined || inline === undefined) return undefined;
  const slowdown = inline / isolated;
  return {
    target: "≤ 2.5x inline",
    shown: `${slowdown.toFixed(2)}x`,
    pass: verdict(slowdown, { atMost: 2.5 }).pass,
  };
}

/** RSS growth bound of the memory test, percent. */
export const RSS_GROWTH_PERCENT = 10;
/** Peak RSS bound of the memory test, KiB (80 MiB). */
export const RSS_PEAK_KB = 80 * 1024;

/**
 * The memory test: RSS at the end within +10% of RSS after warm-up (a
 * decrease passes), and the host's peak RSS (`VmHWM`, warm-up included) at
 * most 80 MiB. Two checks; a missing measurement is a MISS that says so.
 *
 * @example
 * ```ts
 * import { memoryChecks } from "./targets.ts";
 * const [growth, peak] = memoryChecks(100_000, 110_000, 81_920);
 * console.assert(growth?.pass && growth.shown === "+10.0%");
 * console.assert(peak?.pass && peak.shown === "peak 80.0 MiB");
 * ```
 */
export function memoryChecks(
  startKb: number | undefined,
  endKb: number | undefined,
  peakKb: number | undefined,
): [Check, Check] {
  let growth: Check = { target: "within +10%", shown: "not measured", pass: false };
  if (startKb !== undefined && endKb !== undefined && startKb > 0) {
    const change = ((endKb - startKb) / startKb) * 100;
    growth = {
      target: "within +10%",
      shown: `${change >= 0 ? "+" : ""}${change.toFixed(1)}%`,
      // Compared in KiB so that exactly +10% passes without rounding noise.
      pass: endKb * 100 <= startKb * (100 + RSS_GROWTH_PERCENT),
    };
  }
  const peak: Check = peakKb === undefined
    ? { target: "peak ≤ 80 MiB", shown: "peak not measured", pass: false }
    : {
      target: "peak ≤ 80 MiB",
      shown: `peak ${formatNumber(peakKb / 1024)} MiB`,
      pass: peakKb <= RSS_PEAK_KB,
    };
  return [growth, peak];
}

/**
 * The first run of `demo`: PASS when the packages it installed are exactly
 * its import graph's closure (as sets). Not measured is a MISS that says
 * why; a difference names the packages on each side.
 *
 * @example
 * ```ts
 * import { firstRunCheck } from "./targets.ts";
 * const ok = firstRunCheck({ status: "measured", installed: ["b", "a"], graph: ["a", "b"], seconds: 9 });
 * console.assert(ok.pass && ok.shown === "2 installed = 2 in the graph");
 * console.assert(!firstRunCheck({ status: "not measured", reason: "x" }).pass);
 * ```
 */
export function firstRunCheck(result: FirstRunResult): Check {
  const target = "downloads only the packages the demo imports";
  if (result.status !== "measured") {
    return { target, shown: `not measured (${result.reason})`, pass: false };
  }
  const installed = new Set(result.installed);
  const graph = new Set(result.graph);
  const extra = [...installed].filter((name) => !graph.has(name)).sort();
  const missing = [...graph].filter((name) => !installed.has(name)).sort();
  const counts = `${installed.size} installed`;
  if (extra.length === 0 && missing.length === 0) {
    return { target, shown: `${counts} = ${graph.size} in the graph`, pass: true };
  }
  const list = (names: string[]) =>
    names.slice(0, 5).join(", ") + (names.length > 5 ? `, … (${names.length})` : "");
  const parts = [`${counts}, ${graph.size} in the graph`];
  if (extra.length > 0) parts.push(`not in the graph: ${list(extra)}`);
  if (missing.length > 0) parts.push(`in the graph, not installed: ${list(missing)}`);
  return { target, shown: parts.join("; "), pass: false };
}

/**
 * The summary under the table: every target of every row counted once.
 *
 * @example
 * ```ts
 * import { summaryLine } from "./targets.ts";
 * console.assert(summaryLine([{ target: "t", shown: "1", pass: true }]) === "Targets: 1 PASS, 0 MISS.");
 * ```
 */
export function summaryLine(checks: readonly Check[]): string {
  const pass = checks.filter((c) => c.pass).length;
  return `Targets: ${pass} PASS, ${checks.length - pass} MISS.`;
}
