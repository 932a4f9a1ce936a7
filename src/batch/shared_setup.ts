/**
 * What every slot of a batch shares, set up once before the first item: the
 * config's tool sources (MCP servers, OpenAPI documents: `--config`,
 * `--no-config`, `--mcp-config`, as `run` reads them), the one registry of
 * the tool modules and the sources' tools, and the kernel probe's answer
 * (checked against `--require-kernel-sandbox`). The config decides which
 * tool directories load (`planTools`: without `--tools`, a missing `./tools`
 * is fine when the config has a source); then the tool directories are
 * described, the sources started and the kernel probed in parallel.
 *
 * A failure of any of them is reported on stderr and leaves nothing running
 * (a `Reported` value: exit 2 before an item runs). The caller closes the sources when the
 * batch ends.
 *
 * @module
 */

import type { ApprovalRule } from "../call/approval_rules.ts";
import { loadRegistry } from "../run/backend_run.ts";
import { kernelRequirementError, startKernelProbe } from "../run/kernel_sandbox.ts";
import { type ArgumentsRecorder, recorderFor } from "../run/record_args.ts";
import { planTools, startPlannedSources, warnOnStderr } from "../run/sources.ts";
import type { StartedSources } from "../sources/start.ts";
import { prepareToolDirs } from "../toolset/discovery.ts";
import type { ToolRegistry } from "../toolset/registry.ts";
import type { KernelSupport } from "../sandbox/kernel_policy.ts";
import { writeStderrLine } from "../runtime/mod.ts";
import { isReported, type Reported, reported } from "../errors/mod.ts";
import type { BatchOptions } from "./options.ts";
import { checkItemScopes, type ItemCwd } from "./item_cwd.ts";

/** The tools, sources and kernel layer of a batch, shared by its slots. */
export interface SharedSetup {
  /** The tool modules and the sources' tools. */
  registry: ToolRegistry;
  /** The tool directories loaded (none when the config's sources stand in for `./tools`). */
  toolDirs: string[];
  /** The started sources; closed by the caller when the batch ends (never rejects). */
  sources: StartedSources;
  /** The kernel probe's answer, given to every slot's backend connection. */
  kernel: KernelSupport;
  /** `--record-args` or the config's `records.arguments`: the arguments recorder. */
  recordArguments?: ArgumentsRecorder;
  /** The config's approval rules (`approvals`), checked after the flags' (none: absent). */
  approvalRules?: readonly ApprovalRule[];
}

/**
 * Start the sources, load the registry and probe the kernel layer once for
 * the batch, in `where.cwd` (the batch's `--cwd`: the config is looked up and the
 * local servers run there). The process tools' scopes are also checked against the host
 * inputs of every item directory in `where.itemCwds` (`item_cwd.ts`), before any module is
 * imported: a refusal names the item. Resolves {@link Reported} (with the failure's code) after
 * reporting a failure on stderr (exit 2); nothing is left running then.
 */
export async function prepareSharedSetup(
  args: Pick<
    BatchOptions,
    | "input"
    | "toolDirs"
    | "toolDirsExplicit"
    | "config"
    | "noConfig"
    | "mcpConfigs"
    | "kernelSandbox"
    | "startTimeoutMs"
    | "recordArgs"
  >,
  where: { cwd: string; itemCwds: readonly ItemCwd[] },
): Promise<SharedSetup | Reported> {
  const { cwd } = where;
  const plan = await planTools({
    toolDirs: args.toolDirs,
    toolDirsExplicit: args.toolDirsExplicit,
    config: args.config,
    noConfig: args.noConfig,
    mcpConfigs: args.mcpConfigs,
    cwd,
  });
  if (isReported(plan)) return plan;
  const { toolDirs } = plan;
  const prepared = prepareToolDirs(toolDirs);
  prepared.catch(() => {}); // Awaited by loadRegistry; a failure first must not go unhandled.
  const probe = startKernelProbe(args.kernelSandbox);
  const sources = await startPlannedSources(plan, {
    cwd,
    onWarning: warnOnStderr,
    startTimeoutMs: args.startTimeoutMs,
  }).catch(
    async (error) => {
      await prepared.catch(() => {});
      throw error;
    },
  );
  if (isReported(sources)) {
    await prepared.catch(() => {}); // The describe child ends; nothing of it is left.
    return sources;
  }
  let registry: ToolRegistry | Reported;
  try {
    // Each item's directory gets the host-input checks of --cwd, before anything is imported.
    const ready = await prepared.catch(() => null); // A failure is loadRegistry's to report.
    const refusal = ready === null ? null : await checkItemScopes(where.itemCwds, {
      toolDirs,
      prepared: ready,
      configFiles: plan.config.files,
      root: cwd,
      input: args.input,
    });
    if (refusal !== null) {
      writeStderrLine(`magi-tools: ${refusal}`);
      await sources.close();
      return reported("tool_load");
    }
    registry = await loadRegistry(toolDirs, {
      prepared,
      external: sources.tools,
      cwd,
      configFiles: plan.config.files,
      // --require-kernel-sandbox refuses before any inline module is imported.
      ...(args.kernelSandbox === "require"
        ? { admit: async (tools) => kernelRequirementError(tools, await probe) }
        : {}),
    });
  } catch (error) {
    await sources.close();
    throw error;
  }
  const kernel = await probe;
  const kernelError = !isReported(registry) && args.kernelSandbox === "require"
    ? kernelRequirementError(registry.tools, kernel)
    : null;
  if (kernelError !== null) writeStderrLine(`magi-tools: ${kernelError}`);
  if (isReported(registry) || kernelError !== null) {
    await sources.close();
    return isReported(registry) ? registry : reported("kernel_required");
  }
  const recordArguments = recorderFor(args.recordArgs, plan.config);
  const approvalRules = plan.config.approvals;
  return {
    registry,
    toolDirs,
    sources,
    kernel,
    ...(recordArguments ? { recordArguments } : {}),
    ...(approvalRules === undefined ? {} : { approvalRules }),
  };
}
