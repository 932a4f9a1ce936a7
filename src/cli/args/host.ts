/**
 * The flags every command that starts a host shares (`run`, `batch`, and
 * the config flags of `tools`, `mcp`, `call`): `--config`, `--no-config`,
 * `--mcp-config`, `--require-kernel-sandbox`, `--no-kernel-sandbox`. One
 * parser each, so both commands word their errors alike.
 *
 * @module
 */

import { UsageError } from "../../run/exit_codes.ts";
import type { KernelSandboxMode } from "../../run/kernel_sandbox.ts";

/** The config flags (`--config`, `--no-config`, `--mcp-config`). */
export interface ConfigArgs {
  /** `--config FILE`. */
  config: string | undefined;
  /** `--no-config`: do not read `magi-tools.jsonc`. */
  noConfig: boolean;
  /** `--mcp-config FILE`s. */
  mcpConfigs: string[];
}

/** Parsed `node:util` parseArgs values. */
export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** parseArgs options of {@link ConfigArgs}. */
export const CONFIG_OPTIONS = {
  config: { type: "string" },
  "no-config": { type: "boolean" },
  "mcp-config": { type: "string", multiple: true },
} as const;

/** parseArgs options of {@link kernelSandboxMode}. */
export const KERNEL_OPTIONS = {
  "require-kernel-sandbox": { type: "boolean" },
  "no-kernel-sandbox": { type: "boolean" },
} as const;

/**
 * The config flags of parsed `values`; a usage error names the flag.
 *
 * @example
 * ```ts
 * import { configArgs } from "./host.ts";
 * const args = configArgs({ "no-config": true, "mcp-config": ["a.json"] });
 * console.assert(args.noConfig && args.mcpConfigs[0] === "a.json" && args.config === undefined);
 * ```
 */
export function configArgs(values: FlagValues): ConfigArgs {
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

/**
 * `--require-kernel-sandbox` (`require`), `--no-kernel-sandbox` (`off`), else `auto`;
 * both at once is a usage error.
 *
 * @example
 * ```ts
 * import { kernelSandboxMode } from "./host.ts";
 * console.assert(kernelSandboxMode({ "no-kernel-sandbox": true }) === "off");
 * console.assert(kernelSandboxMode({}) === "auto");
 * ```
 */
export function kernelSandboxMode(values: FlagValues): KernelSandboxMode {
  const require = values["require-kernel-sandbox"] === true;
  const off = values["no-kernel-sandbox"] === true;
  if (require && off) {
    throw new UsageError("Options --require-kernel-sandbox and --no-kernel-sandbox conflict");
  }
  return require ? "require" : off ? "off" : "auto";
}
