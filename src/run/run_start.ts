/**
 * Starting a backend connection (`BackendRun.start`): the backend spawned (unless given) while
 * the tool sources start and the tools load, the kernel sandbox probed and checked; once
 * initialized, the checks of the `initialize` result and the connection's `host.ready` record.
 *
 * @module
 */

import type { LocalAgentClient } from "../client/client.ts";
import { NO_SOURCES, type StartedSources } from "../sources/start.ts";
import type { ToolRegistry } from "../toolset/registry.ts";
import type { ProcessLimits } from "../sandbox/containment.ts";
import type { KernelSupport } from "../sandbox/kernel_policy.ts";
import type { ClientToolsDescriptor, InitializeResult } from "../protocol/schemas/mod.ts";
import {
  type ChildHandle,
  runtimeName,
  supportsProcessIsolation,
  writeStderrLine,
} from "../runtime/mod.ts";
import type { HostReadyRecord } from "../summary/records.ts";
import { type AgentCommand, backendInfo } from "./agent.ts";
import { backendStartFailure } from "./agent_errors.ts";
import { discardBackend, startBackend } from "./backend_start.ts";
import { hostErrorRecord } from "./failure.ts";
import { HostError, isHostError, isReported, type Reported, reported } from "../errors/mod.ts";
import type { BackendStartOptions } from "./run_options.ts";
import {
  entryLevel,
  kernelForTools,
  kernelRequirementError,
  limitsForTools,
  prefetchModuleGraphs,
  processLimitsRecord,
} from "./kernel_sandbox.ts";
import { admission, loadRegistry } from "./load_registry.ts";
import { PREWARM_MAX_TOOLS } from "./tool_wiring.ts";

/** What a started connection is made of. */
export interface ConnectionParts {
  /** The tools. */
  readonly registry: ToolRegistry;
  /** The spawned (or given) backend. */
  readonly child: ChildHandle;
  /** The kernel layer's availability, probed once at start. */
  readonly kernel: KernelSupport;
  /** Memory caps and a tool's own processes: how they are contained (null: no tool process). */
  readonly limits: ProcessLimits | null;
  /** The config's tool sources (closed by the connection's stop). */
  readonly sources: StartedSources;
}

/**
 * Spawn the backend (unless given) while the tools load. Resolves with the connection's
 * parts, or with the failure already reported: the tools fail to load (on stderr) or the
 * backend cannot be spawned (`host.error` on the writer); a backend not used is discarded.
 */
export async function startConnection(
  options: BackendStartOptions,
): Promise<ConnectionParts | Reported> {
  // The backend starts while the tool modules load; initialize waits for the registry.
  const start = options.backend ?? startBackend(options.agent, options);
  const sources = await (options.sources ?? Promise.resolve(NO_SOURCES)).catch(async (error) => {
    await discardBackend(start);
    throw error;
  });
  const kernelMode = options.kernelSandbox ?? "auto";
  const admitted = admission(kernelMode, options.kernel);
  if (isReported(sources)) {
    await discardBackend(start);
    return sources;
  }
  let registry: ToolRegistry | Reported;
  try {
    registry = options.registry ?? await loadRegistry(options.toolDirs, {
      ...(options.tools === undefined ? {} : { prepared: options.tools }),
      external: sources.tools,
      cwd: options.cwd,
      ...(options.configFiles === undefined ? {} : { configFiles: options.configFiles }),
      ...(admitted.admit === undefined ? {} : { admit: admitted.admit }),
    });
  } catch (error) {
    await Promise.all([discardBackend(start), sources.close()]);
    throw error;
  }
  if (isReported(registry)) {
    await Promise.all([discardBackend(start), sources.close()]);
    return registry;
  }
  // No probe process when no tool of this run would use the kernel layer.
  const [kernel, limits] = await Promise.all([
    admitted.kernel() ?? kernelForTools(registry.tools, kernelMode),
    limitsForTools(registry.tools),
  ]);
  const kernelError = kernelMode === "require"
    ? kernelRequirementError(registry.tools, kernel)
    : null;
  if (kernelError !== null) {
    writeStderrLine(`magi-tools: ${kernelError}`);
    await Promise.all([discardBackend(start), sources.close()]);
    return reported("kernel_required");
  }
  prefetchModuleGraphs(registry.tools, kernel, { cwd: options.cwd, limit: PREWARM_MAX_TOOLS });
  if (start.child === undefined) {
    await sources.close();
    // Only the command's basename on stdout (the command line may hold secrets), as
    // host.ready does; the full command as given on stderr.
    const { message, stderrLine } = backendStartFailure(options.agent, start.error);
    writeStderrLine(stderrLine);
    options.writer.emit(hostErrorRecord(new HostError("backend_unavailable", message), false));
    return reported("backend_unavailable");
  }
  return { registry, child: start.child, kernel, limits, sources };
}

/** The connection's `host.ready` record (without `ts` and `v`). */
export function readyRecord(
  agent: AgentCommand,
  client: LocalAgentClient,
  init: InitializeResult,
  parts: Pick<ConnectionParts, "registry" | "kernel" | "limits">,
): Omit<HostReadyRecord, "ts" | "v"> {
  const { registry, kernel, limits } = parts;
  return {
    type: "host.ready",
    agent: agent.label,
    instance_id: client.instanceId ?? "",
    provider: init.status.provider,
    model: init.status.model,
    capabilities: init.capabilities,
    tools: registry.tools.map((t) => ({
      name: t.definition.name,
      tool_id: t.toolId,
      effect: t.definition.effect,
      source: t.source.kind,
      source_name: t.source.name,
      sandbox: entryLevel(t, kernel),
    })),
    // How memoryMb and the processes a tool starts are contained, where a tool has a process.
    ...(limits === null ? {} : { process_limits: processLimitsRecord(limits)! }),
    // Without a process sandbox (Node.js) every tool runs inline: say so.
    ...(supportsProcessIsolation() ? {} : { runtime: runtimeName(), isolation: "inline" as const }),
    // Which backend served: a job run on the scripted reference backend says so.
    backend: backendInfo(agent),
  };
}

/**
 * The checks of an `initialize` result: the backend is ready and its `client.tools`
 * descriptor matches the registry; resolves with that descriptor, throws a HostError.
 */
export function checkInitialized(
  init: InitializeResult,
  registry: ToolRegistry,
): ClientToolsDescriptor {
  if (init.status.state === "failed" || init.status.readiness !== "ready") {
    throw new HostError("startup_failed", `Backend not ready: ${init.status.readiness}`);
  }
  const descriptor = init.descriptors?.["client.tools"];
  if (descriptor === undefined) {
    throw new HostError("descriptor_mismatch", "No client.tools descriptor");
  }
  try {
    registry.verifyDescriptor(descriptor);
  } catch (error) {
    if (isHostError(error, "registry")) {
      throw new HostError("descriptor_mismatch", error.message);
    }
    throw error;
  }
  return descriptor;
}
