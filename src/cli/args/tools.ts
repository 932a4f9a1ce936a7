/**
 * Command-line parsing of `tools` (its output modes, the config flags and `--tools`).
 *
 * @module
 */

import { UsageError } from "../../errors/mod.ts";
import type { ConfigArgs, ToolDirArgs } from "../../run/command_options.ts";
import { optionalString, parseFlags } from "./_flags.ts";
import {
  approvePolicy,
  CONFIG_OPTIONS,
  configArgs,
  HELP_OPTION,
  toolDirArgs,
  TOOLS_OPTION,
} from "./turn_flags.ts";
import type { ApprovalPolicy } from "../../call/approval_rules.ts";

/** `tools` options. */
export interface ToolsArgs extends ConfigArgs, ToolDirArgs {
  /** Subcommand. */
  command: "tools";
  /** Print the exact definitions as JSON. */
  json: boolean;
  /** Print each tool's isolation, memory cap and permissions as JSON. */
  permissionsJson: boolean;
  /** Print the least `deno run` permission flags `run` needs. */
  denoFlags: boolean;
  /** Print the `deno run` flags of an `init` project's tasks, from the config (no tools load). */
  taskFlags: boolean;
  /** `--agent` command line (for `--deno-flags`). */
  agent: string | undefined;
  /** `--approve` rules to show the effect of, over the config's (as `run` would apply them). */
  approvals: ApprovalPolicy;
}

/** Parse the arguments after `tools`. */
export function parseToolsArgs(argv: string[]): ToolsArgs | { command: "help"; topic: "tools" } {
  const { values, positionals } = parseFlags(argv, {
    ...TOOLS_OPTION,
    json: { type: "boolean" },
    "permissions-json": { type: "boolean" },
    "deno-flags": { type: "boolean" },
    "task-flags": { type: "boolean" },
    agent: { type: "string" },
    approve: { type: "string", multiple: true },
    ...HELP_OPTION,
    ...CONFIG_OPTIONS,
  });
  if (values.help) return { command: "help", topic: "tools" };
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
  const modes = ["json", "permissions-json", "deno-flags", "task-flags"].filter((m) =>
    values[m] === true
  );
  if (modes.length > 1) {
    throw new UsageError(`Options --${modes[0]} and --${modes[1]} cannot be combined`);
  }
  const agent = optionalString(values.agent, "--agent");
  if (agent !== undefined && values["deno-flags"] !== true) {
    throw new UsageError("Option --agent of tools needs --deno-flags");
  }
  return {
    command: "tools",
    ...toolDirArgs(values.tools),
    json: values.json === true,
    permissionsJson: values["permissions-json"] === true,
    denoFlags: values["deno-flags"] === true,
    taskFlags: values["task-flags"] === true,
    agent,
    approvals: approvePolicy(values, "deny"),
    ...configArgs(values),
  };
}
