/**
 * The option types every command that loads tools or runs turns shares, as the CLI parses them
 * (`src/cli/args/`) and the layers above this one take them (`batch`, `inspect`): the config
 * flags, the tool directories, and the flags of a turn that `run` and `batch` both take.
 *
 * @module
 */

import type { KernelSandboxMode } from "./kernel_sandbox.ts";

/** The config flags (`--config`, `--no-config`, `--mcp-config`). */
export interface ConfigArgs {
  /** `--config FILE`. */
  config: string | undefined;
  /** `--no-config`: do not read `magi-tools.jsonc`. */
  noConfig: boolean;
  /** `--mcp-config FILE`s. */
  mcpConfigs: string[];
}

/** Default deadline of a backend's start (spawn to its `initialize` answer), ms. */
export const DEFAULT_START_TIMEOUT_MS = 60_000;

/** The tool directory loaded when `--tools` is not given. */
export const DEFAULT_TOOL_DIR = "./tools";

/** The `--tools DIR` list of a command that loads tools, and whether it was given. */
export interface ToolDirArgs {
  /** Tool directories (default `["./tools"]`, {@link DEFAULT_TOOL_DIR}). */
  toolDirs: string[];
  /**
   * Whether `--tools` was given. When it was not, a missing `./tools` is no error if the
   * config declares a tool source (`planTools` in `sources.ts`).
   */
  toolDirsExplicit: boolean;
}

/** The flags of a turn that `run` and `batch` share (one option table in `src/cli/args/`). */
export interface TurnFlags extends ConfigArgs, ToolDirArgs {
  /** `--agent` command line. */
  agent: string | undefined;
  /** `--cwd` (batch: of the items without their own cwd). */
  cwd: string | undefined;
  /** `--deltas`: also record `message.delta`. */
  deltas: boolean;
  /** `--timeout` in milliseconds (batch: per item). */
  timeoutMs: number | undefined;
  /**
   * `--start-timeout` in milliseconds: the deadline of a backend's start, spawn to its
   * `initialize` answer (default {@link DEFAULT_START_TIMEOUT_MS}).
   */
  startTimeoutMs: number;
  /** `--stall-timeout` in milliseconds (default 60,000; 0 disables the liveness probe). */
  stallTimeoutMs: number;
  /** `--fail-on-tool-error`: exit 1 when a tool call ended in error or was denied. */
  failOnToolError: boolean;
  /** `--record-args`: each call's arguments (secrets redacted) on its `tool.call` record. */
  recordArgs: boolean;
  /** `--require-kernel-sandbox` (`require`), `--no-kernel-sandbox` (`off`), else `auto`. */
  kernelSandbox: KernelSandboxMode;
}
