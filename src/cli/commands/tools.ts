/**
 * `tools`: validate and list tools with their byte costs, the frame budget
 * left and each tool's isolation and permissions; or print the exact
 * definitions (`--json`), the sandbox settings (`--permissions-json`), or
 * the least `deno run` flags `run` needs (`--deno-flags`), or the flags of an
 * `init` project's tasks, derived from its config (`--task-flags`). Each tool's line
 * ends with its enforcement level (`kernel+deno`, `deno`, `none`).
 *
 * @module
 */

import {
  type ApprovalRule,
  decideByPolicy,
  sourceName,
  withConfigRules,
} from "../../call/approval_rules.ts";
import type { RegisteredTool, ToolRegistry } from "../../toolset/registry.ts";
import type { ToolInfo } from "../../tool/define.ts";
import { formatToolPermissions, toolSandboxInfo } from "../../sandbox/mod.ts";
import {
  currentDir,
  stdoutIsTerminal,
  supportsProcessIsolation,
  terminalSafeJson,
  terminalText,
  writeStdout,
} from "../../runtime/mod.ts";
import { resolveAgentCommand } from "../../run/agent.ts";
import type { ToolsArgs } from "../args/mod.ts";
import { cliDenoFlags } from "./_deno_flags.ts";
import { EXIT, exitCode } from "../../run/exit_codes.ts";
import { isReported } from "../../errors/mod.ts";
import { loadRegistry } from "../../run/backend_run.ts";
import {
  entryLevel,
  limitsForTools,
  processLimitsNotes,
  startKernelProbe,
} from "../../run/kernel_sandbox.ts";
import { planTools, startPlannedSources, warnOnStderr } from "../../run/sources.ts";

const encoder = new TextEncoder();

/**
 * A flags line (paths from the project in it): exact into a pipe (`$(…)`), its control
 * characters shown visibly on a terminal.
 */
function flagsLine(flags: readonly string[]): string {
  const line = flags.join(" ") + "\n";
  return stdoutIsTerminal() ? terminalText(line) : line;
}

/**
 * One line per write tool: what the approval rules (`--approve`, then the config's `approvals`)
 * decide for it and which rule says so; a tool no rule decides gets the command's default.
 */
function approvalLines(
  tools: readonly RegisteredTool[],
  args: ToolsArgs,
  configRules: readonly ApprovalRule[],
): string[] {
  const policy = withConfigRules(args.approvals, configRules);
  // Without any rule or given default every write tool gets the command's: nothing to show.
  if (policy.rules.length === 0 && policy.fallbackOrigin === "command") return [];
  return tools.filter((entry) => entry.definition.effect === "write").map((entry) => {
    const decided = decideByPolicy(policy, entry.definition.name, sourceName(entry.source));
    const why = decided.origin === "command"
      ? "no rule: the command's default, run and batch deny, mcp and inspect ask"
      : `rule ${decided.rule} from ${decided.origin === "flag" ? "--approve" : "the config"}`;
    return `approval ${entry.definition.name}: ${
      decided.origin === "command" ? "default" : decided.decision
    } (${why})`;
  });
}

/** Run `tools`; returns the exit code. */
export async function toolsCommand(args: ToolsArgs): Promise<number> {
  if (args.taskFlags) {
    const { configTaskFlags } = await import("./_task_flags.ts");
    await writeStdout(encoder.encode(flagsLine(await configTaskFlags(args))));
    return EXIT.ok;
  }
  // MCP servers of the config are started, listed and stopped again.
  const cwd = currentDir();
  const plan = await planTools({ ...args, cwd });
  if (isReported(plan)) return exitCode(plan.code);
  const sources = await startPlannedSources(plan, { cwd, onWarning: warnOnStderr });
  if (isReported(sources)) return exitCode(sources.code);
  let registry;
  try {
    registry = await loadRegistry(plan.toolDirs, {
      external: sources.tools,
      configFiles: plan.config.files,
    });
  } finally {
    await sources.close();
  }
  if (isReported(registry)) return exitCode(registry.code);
  let text: string;
  if (args.json) text = definitionsJson(registry);
  else if (args.permissionsJson) text = await permissionsJson(registry);
  else if (args.denoFlags) {
    const agent = await resolveAgentCommand(args.agent, { missing: "magi-code" });
    text = flagsLine(cliDenoFlags(registry, { toolDirs: plan.toolDirs, agent }));
  } else text = await listing(registry, args, plan.config.approvals ?? []);
  await writeStdout(encoder.encode(text));
  return EXIT.ok;
}

/**
 * `--json`: every tool's definition as `initialize` would send it: no sandbox settings mixed in.
 * Past 32 tools `initialize` sends the first ones and the catalog's (docs/tools.md).
 * Besides the wire fields: `title`, `annotations` and `output_schema` (what `mcp` lists).
 */
function definitionsJson(registry: ToolRegistry): string {
  const definitions = registry.tools.map((entry) => ({
    ...entry.definition,
    ...(entry.title === undefined ? {} : { title: entry.title }),
    annotations: entry.annotations,
    ...(entry.outputSchema === undefined ? {} : { output_schema: entry.outputSchema }),
  }));
  return terminalSafeJson(definitions) + "\n";
}

/**
 * `--permissions-json`: each tool's sandbox settings and level. External tools (MCP, OpenAPI)
 * have no sandbox settings: their work happens in the source.
 */
async function permissionsJson(registry: ToolRegistry): Promise<string> {
  const [kernel, limits] = await Promise.all([
    startKernelProbe("auto"),
    limitsForTools(registry.tools),
  ]);
  const infos = registry.tools.map((entry) =>
    entry.source.kind === "module"
      ? {
        name: entry.tool.name,
        ...toolSandboxInfo(entry.tool as ToolInfo),
        sandbox: entryLevel(entry, kernel),
        // How memoryMb is enforced here (null: no cap, or the tool runs inline).
        memory_enforcement: limits === null || (entry.tool as ToolInfo).memoryMb === undefined ||
            entryLevel(entry, kernel) === "none"
          ? null
          : limits.memory,
      }
      : {
        name: entry.tool.name,
        isolation: "external",
        source: entry.file,
        sandbox: entryLevel(entry, kernel),
      }
  );
  return terminalSafeJson(infos) + "\n";
}

/**
 * The listing: a line per tool (name, effect, bytes, file, ID, permissions, sandbox level),
 * the notes on the kernel sandbox, process limits, the catalog and approvals, and the budget.
 */
async function listing(
  registry: ToolRegistry,
  args: ToolsArgs,
  configRules: readonly ApprovalRule[],
): Promise<string> {
  const budget = registry.budget();
  const processIsolation = supportsProcessIsolation();
  const [kernel, limits] = await Promise.all([
    startKernelProbe("auto"),
    limitsForTools(registry.tools),
  ]);
  const lines: string[] = [];
  for (const entry of registry.tools) {
    const d = entry.definition;
    lines.push(
      `${d.name}\t${d.effect}\t${entry.definitionBytes} bytes\t${entry.file}\t${entry.toolId}\t${
        entry.source.kind === "module"
          ? formatToolPermissions(entry.tool as ToolInfo, { processIsolation })
          : `external (${entry.source.kind} server ${entry.source.name})`
      }\t${entryLevel(entry, kernel)}`,
    );
  }
  if (kernel.reason !== null && registry.tools.length > 0) {
    lines.push(`kernel sandbox unavailable: ${kernel.reason}`);
  }
  const processTools = registry.tools.filter((entry) =>
    entry.source.kind === "module" && entryLevel(entry, kernel) !== "none"
  );
  lines.push(
    ...processLimitsNotes(limits, processTools.map((entry) => ({ tool: entry.tool as ToolInfo }))),
  );
  if (registry.hasCatalog) {
    const direct = registry.registered.filter((wire) => wire.file !== "catalog");
    const own = registry.registered.filter((wire) => wire.file === "catalog");
    lines.push(
      `more than 32 tools: run and batch register the first ${direct.length} directly and reach the other ${
        registry.tools.length - direct.length
      } through ${own.map((wire) => wire.name).join(", ")}`,
    );
  }
  lines.push(...approvalLines(registry.tools, args, configRules));
  lines.push(
    `${registry.tools.length} tool(s); initialize request ${budget.usedBytes} of ${budget.frameBytes} bytes; ${budget.remainingBytes} bytes left`,
  );
  // Names, files and reasons come from tool modules and sources: no raw control characters.
  return terminalText(lines.join("\n") + "\n");
}
