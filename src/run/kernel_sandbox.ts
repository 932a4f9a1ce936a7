/**
 * The kernel layer as the CLI sees it: the probe started with the host, each
 * tool's enforcement level (`tools`, `host.ready`) and
 * `--require-kernel-sandbox`.
 *
 * @module
 */

import type { ToolInfo } from "../tool/define.ts";
import { isolationOf } from "../sandbox/permissions.ts";
import {
  type KernelSupport,
  kernelUnavailable,
  type SandboxLevel,
  sandboxLevel,
  weakerLevelReason,
} from "../sandbox/kernel_policy.ts";
import { resolve } from "node:path";
import {
  announceKernelUnavailable,
  KERNEL_NOTICE_CODE,
  kernelNoticeText,
} from "../sandbox/kernel_notice.ts";
import type { SummaryInput } from "../summary/records.ts";
import type { ProcessLimits } from "../sandbox/containment.ts";
import { runtimeExecutable, runtimeName, supportsProcessIsolation } from "../runtime/mod.ts";

/** `--no-kernel-sandbox` (`off`), `--require-kernel-sandbox` (`require`), or neither (`auto`). */
export type KernelSandboxMode = "auto" | "off" | "require";

/**
 * Start finding out whether the kernel layer is available (a short-lived
 * probe process on Linux; nothing elsewhere). Never rejects.
 */
export function startKernelProbe(mode: KernelSandboxMode): Promise<KernelSupport> {
  if (!supportsProcessIsolation()) {
    return Promise.resolve(kernelUnavailable(`${runtimeName()} has no process sandbox`));
  }
  if (mode === "off") {
    return Promise.resolve(kernelUnavailable("switched off with --no-kernel-sandbox"));
  }
  return import("../sandbox/kernel.ts").then(
    ({ probeKernelSandbox }) => probeKernelSandbox(),
    (error: unknown) => kernelUnavailable(`the probe failed to load: ${String(error)}`),
  );
}

/** Why {@link kernelForTools} did not probe: nothing of this run would use the kernel layer. */
export const NOT_PROBED_REASON = "not probed: no tool of this run runs in its own process";

/**
 * The kernel layer's availability for a run of `tools`: `probe(mode)` (default
 * {@link startKernelProbe}) when one of them is a tool module that runs in its own
 * process, the only tools the layer applies to; otherwise the probe process is not
 * started (it is a Deno process before `host.ready`) and the answer is "unavailable,
 * not probed", which changes no tool's level (`none` inline, MCP; `deno` OpenAPI) and no
 * `--require-kernel-sandbox` verdict. Never rejects.
 *
 * @example
 * ```ts
 * import { kernelForTools } from "./kernel_sandbox.ts";
 * const inline = { tool: { name: "t", isolation: "inline" as const } };
 * const kernel = await kernelForTools([inline], "auto", () => Promise.reject(new Error("unused")));
 * console.assert(!kernel.available);
 * ```
 */
export function kernelForTools(
  tools: readonly LevelEntry[],
  mode: KernelSandboxMode,
  probe: (mode: KernelSandboxMode) => Promise<KernelSupport> = startKernelProbe,
): Promise<KernelSupport> {
  const needed = tools.some((entry) =>
    (entry.source === undefined || entry.source.kind === "module") &&
    isolationOf(entry.tool as ToolInfo) === "process"
  );
  return needed ? probe(mode) : Promise.resolve(kernelUnavailable(NOT_PROBED_REASON));
}

/**
 * Why a tool module of `tools` that runs in its own process runs without the kernel layer
 * (the kernel's reason), or null when none does (every one has the layer, or none runs in a
 * process). The front doors say it once (`sandbox/kernel_notice.ts`).
 *
 * @example
 * ```ts
 * import { kernelMissingFor } from "./kernel_sandbox.ts";
 * const tools = [{ tool: { name: "t" } }];
 * const off = { available: false, abi: null, reason: "switched off" };
 * console.assert(kernelMissingFor(tools, off) === "switched off");
 * ```
 */
export function kernelMissingFor(
  tools: readonly LevelEntry[],
  kernel: KernelSupport,
): string | null {
  if (kernel.available || kernel.reason === null || kernel.reason === NOT_PROBED_REASON) {
    return null;
  }
  const weaker = tools.some((entry) =>
    (entry.source === undefined || entry.source.kind === "module") &&
    entryLevel(entry, kernel) === "deno"
  );
  return weaker ? kernel.reason : null;
}

/**
 * After `host.ready`: when {@link kernelMissingFor} finds a reason, a `host.warning` record
 * (code `kernel_sandbox_unavailable`) on `writer`, and the notice on stderr once per process.
 */
export function sayKernelMissing(
  tools: readonly LevelEntry[],
  kernel: KernelSupport,
  writer: { emit(record: SummaryInput): unknown },
): void {
  const missing = kernelMissingFor(tools, kernel);
  if (missing === null) return;
  writer.emit({
    type: "host.warning",
    code: KERNEL_NOTICE_CODE,
    message: kernelNoticeText(missing),
  });
  announceKernelUnavailable(missing);
}

/** At most this many `deno info` processes of {@link prefetchModuleGraphs} run at once. */
const PREFETCH_CONCURRENCY = 2;

/**
 * Start computing the module graphs of the process-isolated tools the
 * kernel layer will run and of the runner (one `deno info` each, two at a
 * time, in the background), so their first process starts without waiting for it; at
 * most `limit` tools (the ones the host prewarms), the rest on first use.
 * Never rejects.
 */
export function prefetchModuleGraphs(
  tools: readonly (LevelEntry & { readonly file: string })[],
  kernel: KernelSupport,
  options: { cwd: string; limit: number },
): void {
  const kernelTools = tools.filter((entry) => entryLevel(entry, kernel) === "kernel+deno");
  if (kernelTools.length === 0 || kernelTools.length > options.limit) return;
  const files = kernelTools.map(({ file }) => resolve(file));
  import("../sandbox/kernel.ts").then(async ({ moduleFilesOf, runnerFilesOf }) => {
    const graph = { cwd: options.cwd, denoPath: runtimeExecutable() };
    // The runner's own graph first: every tool process's rules include it.
    const jobs = [
      () => runnerFilesOf(graph),
      ...files.map((file) => () => moduleFilesOf(file, graph)),
    ];
    const next = async (): Promise<void> => {
      const job = jobs.shift();
      if (job === undefined) return;
      await job();
      await next();
    };
    await Promise.all(Array.from({ length: PREFETCH_CONCURRENCY }, next));
  }).catch(() => {});
}

/** The enforcement level of `tool` in this host. */
export function levelOf(tool: Pick<ToolInfo, "isolation">, kernel: KernelSupport): SandboxLevel {
  return sandboxLevel(tool, kernel, supportsProcessIsolation());
}

/** A registered tool as {@link entryLevel} reads it. */
export interface LevelEntry {
  readonly tool: { readonly name: string };
  /** Absent: a tool module. */
  readonly source?: { readonly kind: "module" | "mcp" | "openapi" };
}

/**
 * The enforcement level of a registered tool. A module's is {@link levelOf};
 * an external tool's work happens in its source: an MCP server is a process
 * magi-tools does not sandbox (`none`); an OpenAPI request runs in a Deno
 * process allowed only the API's host and port (`deno`).
 */
export function entryLevel(entry: LevelEntry, kernel: KernelSupport): SandboxLevel {
  if (entry.source?.kind === "mcp") return "none";
  if (entry.source?.kind === "openapi") return supportsProcessIsolation() ? "deno" : "none";
  return levelOf(entry.tool as ToolInfo, kernel);
}

/**
 * The `--require-kernel-sandbox` failure for `tools`, or null when every one
 * runs at `kernel+deno`: names each weaker tool and why.
 */
export function kernelRequirementError(
  tools: readonly LevelEntry[],
  kernel: KernelSupport,
): string | null {
  const weaker = tools.flatMap((entry) => {
    const { tool, source } = entry;
    if (source !== undefined && source.kind !== "module") {
      return [
        `${tool.name} (${entryLevel(entry, kernel)}: a ${source.kind} tool runs in its source)`,
      ];
    }
    const info = tool as ToolInfo;
    const reason = weakerLevelReason(info, kernel, supportsProcessIsolation());
    return reason === null ? [] : [`${tool.name} (${levelOf(info, kernel)}: ${reason})`];
  });
  if (weaker.length === 0) return null;
  return `--require-kernel-sandbox: ${weaker.length} tool(s) would run without the kernel sandbox: ${
    weaker.join("; ")
  }`;
}

/**
 * How memory caps and the processes a tool starts are contained for a run of `tools`
 * (`sandbox/containment.ts`), or null when no tool module of it runs in its own process
 * (nothing is probed then). Never rejects.
 */
export function limitsForTools(tools: readonly LevelEntry[]): Promise<ProcessLimits | null> {
  const needed = supportsProcessIsolation() &&
    tools.some((entry) =>
      (entry.source === undefined || entry.source.kind === "module") &&
      isolationOf(entry.tool as ToolInfo) === "process"
    );
  if (!needed) return Promise.resolve(null);
  return import("../sandbox/containment.ts").then(
    ({ probeProcessLimits }) => probeProcessLimits(),
    () => null,
  );
}

/** `host.ready`'s `process_limits` (docs/summaries.md) from {@link limitsForTools}. */
export function processLimitsRecord(
  limits: ProcessLimits | null,
): {
  memory: ProcessLimits["memory"];
  descendants: ProcessLimits["descendants"];
  reason: string | null;
} | null {
  return limits === null
    ? null
    : { memory: limits.memory, descendants: limits.descendants, reason: limits.reason };
}

/**
 * The `tools` listing's lines about limits that do not hold here (empty when they all do):
 * `memoryMb` of the named tools beyond the JavaScript heap, processes a tool starts.
 */
export function processLimitsNotes(
  limits: ProcessLimits | null,
  tools: readonly { readonly tool: { readonly name: string; readonly memoryMb?: number } }[],
): string[] {
  if (limits === null || limits.reason === null) return [];
  const notes: string[] = [];
  const capped = tools.filter((entry) => entry.tool.memoryMb !== undefined)
    .map((entry) => entry.tool.name);
  if (limits.memory === "heap_only" && capped.length > 0) {
    notes.push(
      `memoryMb caps only the JavaScript heap (${capped.join(", ")}): ${limits.reason}`,
    );
  }
  if (limits.descendants === "process_group") {
    notes.push(`processes a tool starts may outlive it: ${limits.reason}`);
  }
  return notes;
}
