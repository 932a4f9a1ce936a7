/**
 * Loading the tools of a run: the tool directories' modules (described first, imported
 * after the kernel-sandbox admission) and the config's tools, into one registry.
 *
 * @module
 */

import { describedTool } from "../sandbox/description.ts";
import { loadToolDirs, type PreparedToolDirs, prepareToolDirs } from "../toolset/discovery.ts";
import type { ExternalTool } from "../tool/external.ts";
import { unenforcedPermissionsWarning } from "../sandbox/mod.ts";
import type { KernelSupport } from "../sandbox/kernel_policy.ts";
import { ToolRegistry } from "../toolset/registry.ts";
import { isHostError, type Reported, reported } from "../errors/mod.ts";
import { runtimeName, supportsProcessIsolation, writeStderrLine } from "../runtime/mod.ts";
import {
  kernelForTools,
  kernelRequirementError,
  type KernelSandboxMode,
  type LevelEntry,
} from "./kernel_sandbox.ts";

/** Capabilities `run` requires (and sends in `initialize`). */
export const REQUIRED_CAPABILITIES: readonly string[] = Object.freeze([
  "client.tools",
  "session.create",
  "session.open",
  "turn.start",
  "turn.cancel",
  "approval.answer",
  "status",
  "shutdown",
]);

/** Options of {@link loadRegistry}. */
export interface LoadRegistryOptions {
  /** The tool directories' `prepareToolDirs`, already started by the caller. */
  readonly prepared?: Promise<PreparedToolDirs>;
  /** The config's tools (MCP servers, OpenAPI operations). */
  readonly external?: readonly ExternalTool[];
  /** The tools' working directory (their declared scopes resolve against it); default the host's. */
  readonly cwd?: string;
  /** The config files in use: host inputs that no tool may write (`sandbox/host_inputs.ts`). */
  readonly configFiles?: readonly string[];
  /**
   * `--require-kernel-sandbox`: given every tool as described (nothing imported in the host
   * yet), the refusal, or null to go on. A refusal is reported before any inline module is
   * imported (its top-level code never runs).
   */
  readonly admit?: (tools: readonly LevelEntry[]) => Promise<string | null>;
}

/**
 * Load tools and build the registry; a failure is reported on stderr and resolves
 * `Reported` with its code (`tool_load`, `registry`, `kernel_required`: exit 2).
 */
export async function loadRegistry(
  dirs: string[],
  options: LoadRegistryOptions = {},
): Promise<ToolRegistry | Reported> {
  const external = options.external ?? [];
  try {
    const prepared = await (options.prepared ?? prepareToolDirs(dirs));
    const refusal = options.admit === undefined
      ? null
      : await options.admit([...describedEntries(prepared), ...external.map(externalEntry)]);
    if (refusal !== null) {
      writeStderrLine(`magi-tools: ${refusal}`);
      return reported("kernel_required");
    }
    const loaded = await loadToolDirs(dirs, {
      prepared: Promise.resolve(prepared),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.configFiles === undefined ? {} : { configFiles: options.configFiles }),
    });
    const registry = ToolRegistry.fromLoaded(loaded, {
      requiredCapabilities: REQUIRED_CAPABILITIES,
      external,
    });
    // Without a process sandbox (Node.js) declared permissions are not enforced: say so once.
    const warning = supportsProcessIsolation()
      ? null
      : unenforcedPermissionsWarning(registry.tools.map((entry) => entry.tool), runtimeName());
    if (warning !== null) writeStderrLine(warning);
    return registry;
  } catch (error) {
    if (isHostError(error, "tool_load", "registry")) {
      writeStderrLine(`magi-tools: ${error.message}`);
      return reported(error.code);
    }
    throw error;
  }
}

/**
 * The modules as described, for `admit`: the zero-permission child's descriptions; without
 * one (Node.js: every module would be imported and run inline) each file as an inline tool.
 */
function describedEntries(prepared: PreparedToolDirs): LevelEntry[] {
  if (prepared.described === null) {
    return prepared.files.map((file) => ({ tool: { name: file, isolation: "inline" as const } }));
  }
  return prepared.described.flatMap((result) =>
    result.ok ? [{ tool: describedTool(result.tool) }] : []
  );
}

function externalEntry(tool: ExternalTool): LevelEntry {
  return { tool, source: tool.source };
}

/**
 * The `admit` of {@link loadRegistry} for a kernel sandbox `mode`: under `require`, the
 * refusal of {@link kernelRequirementError}, probing the kernel (once: the returned `kernel`
 * resolves with that answer, or null when nothing was probed).
 */
export function admission(
  mode: KernelSandboxMode,
  known: KernelSupport | undefined,
): { admit?: LoadRegistryOptions["admit"]; kernel: () => Promise<KernelSupport> | null } {
  let kernel: Promise<KernelSupport> | null = known === undefined ? null : Promise.resolve(known);
  if (mode !== "require") return { kernel: () => kernel };
  return {
    admit: async (tools) => {
      kernel ??= kernelForTools(tools, mode);
      return kernelRequirementError(tools, await kernel);
    },
    kernel: () => kernel,
  };
}
