/**
 * The option table of the commands that load tools or run turns, one parser per flag so every
 * command words its errors alike: the config flags (`run`, `batch`, `tools`, `mcp`, `call`,
 * `inspect`), `--tools DIR`, the kernel sandbox flags, and the flags of a turn that `run` and
 * `batch` share ({@link TURN_OPTIONS}, {@link turnFlags}).
 *
 * @module
 */

import { UsageError } from "../../errors/mod.ts";
import type { KernelSandboxMode } from "../../run/kernel_sandbox.ts";
import { DEFAULT_STALL_TIMEOUT_MS } from "../../run/liveness.ts";
import {
  type ConfigArgs,
  DEFAULT_START_TIMEOUT_MS,
  DEFAULT_TOOL_DIR,
  type ToolDirArgs,
  type TurnFlags,
} from "../../run/command_options.ts";
import { optionalString, seconds, type Values } from "./_flags.ts";
import {
  type ApprovalPolicy,
  ApprovalRuleError,
  parseApproveFlags,
  RULE_DECISIONS,
  type RuleDecision,
} from "../../call/approval_rules.ts";

/**
 * The approval rules of repeated `--approve` values (`allow=file_ticket`, a bare decision is
 * the default, `fallback` when none); an invalid value is a usage error naming it.
 *
 * @example
 * ```ts
 * import { approvePolicy } from "./turn_flags.ts";
 * const policy = approvePolicy({ approve: ["allow=write_a", "deny"] }, "deny");
 * console.assert(policy.rules[0]?.tool === "write_a" && policy.fallback === "deny");
 * ```
 */
export function approvePolicy(
  values: Values,
  fallback: RuleDecision,
  allowed: readonly RuleDecision[] = RULE_DECISIONS,
  why = "",
): ApprovalPolicy {
  const given = values.approve;
  const list = given === undefined
    ? []
    : Array.isArray(given)
    ? given.map(String)
    : [String(given)];
  try {
    return parseApproveFlags(list, fallback, allowed, why);
  } catch (error) {
    if (error instanceof ApprovalRuleError) throw new UsageError(error.message);
    throw error;
  }
}

/** parseArgs options of {@link ConfigArgs}. */
export const CONFIG_OPTIONS = {
  config: { type: "string" },
  "no-config": { type: "boolean" },
  "mcp-config": { type: "string", multiple: true },
} as const;

/** parseArgs option of {@link toolDirArgs}. */
export const TOOLS_OPTION = { tools: { type: "string", multiple: true } } as const;

/** parseArgs options of {@link kernelSandboxMode}. */
export const KERNEL_OPTIONS = {
  "require-kernel-sandbox": { type: "boolean" },
  "no-kernel-sandbox": { type: "boolean" },
} as const;

/** `-h`, `--help`. */
export const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

/** parseArgs options of {@link TurnFlags} and `--approve` (the values differ by command). */
export const TURN_OPTIONS = {
  ...TOOLS_OPTION,
  agent: { type: "string" },
  cwd: { type: "string" },
  approve: { type: "string", multiple: true },
  deltas: { type: "boolean" },
  timeout: { type: "string" },
  "start-timeout": { type: "string" },
  "stall-timeout": { type: "string" },
  "fail-on-tool-error": { type: "boolean" },
  "record-args": { type: "boolean" },
  ...KERNEL_OPTIONS,
  ...CONFIG_OPTIONS,
  ...HELP_OPTION,
} as const;

/**
 * The config flags of parsed `values`; a usage error names the flag.
 *
 * @example
 * ```ts
 * import { configArgs } from "./turn_flags.ts";
 * const args = configArgs({ "no-config": true, "mcp-config": ["a.json"] });
 * console.assert(args.noConfig && args.mcpConfigs[0] === "a.json" && args.config === undefined);
 * ```
 */
export function configArgs(values: Values): ConfigArgs {
  const config = values.config;
  if (config !== undefined && (typeof config !== "string" || config === "")) {
    throw new UsageError("Option --config needs a value");
  }
  const noConfig = values["no-config"] === true;
  if (config !== undefined && noConfig) {
    throw new UsageError("Options --config and --no-config cannot be combined");
  }
  const mcpConfigs = Array.isArray(values["mcp-config"]) ? values["mcp-config"].map(String) : [];
  for (const file of mcpConfigs) {
    if (file === "") throw new UsageError("Option --mcp-config needs a file");
  }
  return { config, noConfig, mcpConfigs };
}

/** The `--tools DIR` list (repeatable); default `./tools`, not explicit. */
export function toolDirArgs(value: unknown): ToolDirArgs {
  const dirs = Array.isArray(value) ? value.map(String) : [];
  for (const dir of dirs) if (dir === "") throw new UsageError("Option --tools needs a directory");
  return dirs.length > 0
    ? { toolDirs: dirs, toolDirsExplicit: true }
    : { toolDirs: [DEFAULT_TOOL_DIR], toolDirsExplicit: false };
}

/**
 * `--require-kernel-sandbox` (`require`), `--no-kernel-sandbox` (`off`), else `auto`;
 * both at once is a usage error.
 *
 * @example
 * ```ts
 * import { kernelSandboxMode } from "./turn_flags.ts";
 * console.assert(kernelSandboxMode({ "no-kernel-sandbox": true }) === "off");
 * console.assert(kernelSandboxMode({}) === "auto");
 * ```
 */
export function kernelSandboxMode(values: Values): KernelSandboxMode {
  const require = values["require-kernel-sandbox"] === true;
  const off = values["no-kernel-sandbox"] === true;
  if (require && off) {
    throw new UsageError("Options --require-kernel-sandbox and --no-kernel-sandbox conflict");
  }
  return require ? "require" : off ? "off" : "auto";
}

/** parseArgs option of {@link startTimeout}. */
export const START_TIMEOUT_OPTION = { "start-timeout": { type: "string" } } as const;

/**
 * `--start-timeout SECONDS`: the deadline of a backend's start (spawn to its `initialize`
 * answer) or of the tool sources' start, in ms; default {@link DEFAULT_START_TIMEOUT_MS}.
 *
 * @example
 * ```ts
 * import { startTimeout } from "./turn_flags.ts";
 * console.assert(startTimeout({ "start-timeout": "5" }) === 5000);
 * console.assert(startTimeout({}) === 60_000);
 * ```
 */
export function startTimeout(values: Values): number {
  return seconds(values["start-timeout"], "--start-timeout") ?? DEFAULT_START_TIMEOUT_MS;
}

/** The {@link TurnFlags} of values parsed with {@link TURN_OPTIONS}. */
export function turnFlags(values: Values): TurnFlags {
  return {
    kernelSandbox: kernelSandboxMode(values),
    ...toolDirArgs(values.tools),
    agent: optionalString(values.agent, "--agent"),
    cwd: optionalString(values.cwd, "--cwd"),
    deltas: values.deltas === true,
    timeoutMs: seconds(values.timeout, "--timeout"),
    startTimeoutMs: startTimeout(values),
    stallTimeoutMs: seconds(values["stall-timeout"], "--stall-timeout", { zero: true }) ??
      DEFAULT_STALL_TIMEOUT_MS,
    failOnToolError: values["fail-on-tool-error"] === true,
    recordArgs: values["record-args"] === true,
    ...configArgs(values),
  };
}
