/**
 * Issue 27's targets as pure judgements: which SDK column a row is compared
 * with (the faster of the Deno-run and the Node.js-run SDK; for CPU per call
 * the SDK server that spends less), and PASS/MISS for each target.
 * `bench/report.ts` puts the results in the table.
 *
 * | measurement | target |
 * | --- | --- |
 * | whole tree rate, every round-trip row (trivial, 60 KiB, 1 MiB) | ≥ 1.0x the faster SDK |
 * | host CPU per call, same rows | ≤ 0.67x the SDK server's CPU per call |
 * | startup, 1 and 32 tools: spawn → `host.ready` | ≤ 1.0x the SDK's spawn → `tools/list` |
 * | cold first call after `host.ready`, `call` end to end: isolated tool | ≤ 2x inline |
 * | isolated tool vs inline (calls/s) | ≤ 2.5x |
 * | host RSS over the memory test after warm-up | within +5%; peak ≤ 80 MiB |
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
 * at least `atLeast` times the SDK's (1.0 in every row since issue 27).
 * `undefined` when a side is missing.
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

/** Host CPU per call ÷ SDK server CPU per call at or below which the CPU target passes. */
export const CPU_VS_SERVER = 0.67;

/**
 * The host's CPU per call against the SDK server's (`pick`: the SDK server that spends less
 * per call, {@link fasterSdk} with `"lower"`): PASS at 0.67x or less. `undefined` when a side
 * is missing.
 *
 * @example
 * ```ts
 * import { cpuVsSdkServer } from "./targets.ts";
 * const check = cpuVsSdkServer(44, { runtime: "Deno", value: 66 });
 * console.assert(check?.pass && check.shown === "0.67x of Deno SDK server (44 / 66 µs)");
 * ```
 */
export function cpuVsSdkServer(
  hostUs: number | undefined,
  pick: SdkPick | undefined,
): Check | undefined {
  if (hostUs === undefined || pick === undefined || !(pick.value > 0)) return undefined;
  const ratio = hostUs / pick.value;
  return {
    target: `host CPU ≤ ${CPU_VS_SERVER}x the SDK server's`,
    shown: `${ratio.toFixed(2)}x of ${pick.runtime} SDK server (${formatNumber(hostUs)} / ${
      formatNumber(pick.value)
    } µs)`,
    // Compared unrounded: 0.671 misses.
    pass: verdict(ratio, { atMost: CPU_VS_SERVER }).pass,
  };
}

/**
 * Host spawn → `host.ready` against the faster SDK column's spawn →
 * `tools/list`: PASS at 100% or less.
 *
 * @example
 * ```ts
 * import { startupVsSdk } from "./targets.ts";
 * const check = startupVsSdk(100, { runtime: "Deno", value: 100 });
 * console.assert(check?.pass && check.shown === "100% of Deno SDK");
 * ```
 */
export function startupVsSdk(
  hostMs: number | undefined,
  sdk: SdkPick | undefined,
): Check | undefined {
  if (hostMs === undefined || sdk === undefined) return undefined;
  const ratio = hostMs / sdk.value;
  return {
    target: "≤ 100% of the SDK",
    shown: `${(ratio * 100).toFixed(0)}% of ${sdk.runtime} SDK`,
    pass: verdict(ratio, { atMost: 1.0 }).pass,
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

/**
 * A cold isolated figure (first call after `host.ready`, or `call` end to end, ms) against the
 * inline one of the same placement: PASS when isolated ÷ inline ≤ 2.
 *
 * @example
 * ```ts
 * import { coldVsInline } from "./targets.ts";
 * console.assert(coldVsInline(20, 10)?.pass === true);
 * console.assert(coldVsInline(500, 4)?.shown === "125x inline");
 * ```
 */
export function coldVsInline(
  isolatedMs: number | undefined,
  inlineMs: number | undefined,
): Check | undefined {
  if (isolatedMs === undefined || inlineMs === undefined || !(inlineMs > 0)) return undefined;
  const ratio = isolatedMs / inlineMs;
  return {
    target: "≤ 2x inline",
    shown: `${ratio < 10 ? ratio.toFixed(2) : ratio.toFixed(0)}x inline`,
    pass: verdict(ratio, { atMost: 2 }).pass,
  };
}

/** RSS growth bound of the memory test, percent. */
export const RSS_GROWTH_PERCENT = 5;
/** Peak RSS bound of the memory test, KiB (80 MiB). */
export const RSS_PEAK_KB = 80 * 1024;

/**
 * The memory test: RSS at the end within +5% of RSS after warm-up (a
 * decrease passes), and the host's peak RSS (`VmHWM`, warm-up included) at
 * most 80 MiB. Two checks; a missing measurement is a MISS that says so.
 *
 * @example
 * ```ts
 * import { memoryChecks } from "./targets.ts";
 * const [growth, peak] = memoryChecks(100_000, 105_000, 81_920);
 * console.assert(growth?.pass && growth.shown === "+5.0%");
 * console.assert(peak?.pass && peak.shown === "peak 80.0 MiB");
 * ```
 */
export function memoryChecks(
  startKb: number | undefined,
  endKb: number | undefined,
  peakKb: number | undefined,
): [Check, Check] {
  const within = `within +${RSS_GROWTH_PERCENT}%`;
  let growth: Check = { target: within, shown: "not measured", pass: false };
  if (startKb !== undefined && endKb !== undefined && startKb > 0) {
    const change = ((endKb - startKb) / startKb) * 100;
    growth = {
      target: within,
      shown: `${change >= 0 ? "+" : ""}${change.toFixed(1)}%`,
      // Compared in KiB so that exactly +5% passes without rounding noise.
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
