/**
 * The CLI's glue to external tool sources: load the config, decide which
 * tool directories load beside its sources ({@link planTools}: without
 * `--tools`, a missing `./tools` is fine when the config has a source), start
 * its sources (`src/sources/start.ts`), and the summary records they cause
 * (`host.warning`).
 *
 * @module
 */

import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { CONFIG_FILE_NAME, type HostConfig, loadConfig, type TrustCheck } from "../config/mod.ts";
import {
  hasToolSources,
  type SourceWarning,
  type StartedSources,
  startSources,
  type StartSourcesOptions,
} from "../sources/start.ts";
import type { ExternalTool } from "../tool/external.ts";
import { writeStderrLine } from "../runtime/mod.ts";
import type { SummaryInput } from "../summary/records.ts";
import type { SummaryWriter } from "../summary/writer.ts";
import { isHostError, isReported, type Reported, reported } from "../errors/mod.ts";
import { exitCode } from "./exit_codes.ts";

/**
 * Where source warnings go: held until `host.ready` is written (stdout
 * starts with it), then written at once.
 */
export class SourceWarnings {
  #held: SourceWarning[] = [];
  #writer: SummaryWriter | null = null;
  #detached = false;

  /** Record `warning` (held until {@link attach}; on stderr after {@link detach}). */
  readonly add = (warning: SourceWarning): void => {
    if (this.#detached) this.#toStderr(warning);
    else if (this.#writer === null) this.#held.push(warning);
    else this.#writer.emit(warningRecord(warning));
  };

  /** Write the held warnings to `writer`, and later ones as they come. */
  attach(writer: SummaryWriter): void {
    if (this.#detached) return;
    this.#writer = writer;
    for (const warning of this.#held.splice(0)) writer.emit(warningRecord(warning));
  }

  /**
   * The run's records are complete (its final record is written or about to be): later
   * warnings go to stderr, so no record follows `turn.finished`/`host.error`.
   */
  detach(): void {
    this.#detached = true;
    this.#writer = null;
    for (const warning of this.#held.splice(0)) this.#toStderr(warning);
  }

  #toStderr(warning: SourceWarning): void {
    writeStderrLine(`magi-tools: warning: ${warning.message}`);
  }
}

function warningRecord(warning: SourceWarning): SummaryInput {
  return {
    type: "host.warning",
    code: warning.code,
    message: warning.message,
    source: warning.source,
  };
}

/** Options of {@link startConfiguredSources}. */
export interface ConfiguredSourcesOptions {
  /** `--config`. */
  readonly config: string | undefined;
  /** `--no-config`. */
  readonly noConfig: boolean;
  /** `--mcp-config` files. */
  readonly mcpConfigs: readonly string[];
  /** Working directory (config lookup, server cwd). */
  readonly cwd: string;
  /** Receives source warnings. */
  readonly onWarning: (warning: SourceWarning) => void;
  /** Decides on a project config that needs approval; default the user's (tests inject one). */
  readonly trustConfig?: TrustCheck;
  /** `--start-timeout`: each source's start deadline, ms (default: the source's own, 60 s). */
  readonly startTimeoutMs?: number | undefined;
  /** An MCP server changed its tools (`StartedSources.tools` holds the new ones). */
  readonly onToolsChanged?: () => void;
}

/** Options of {@link planTools}: the config flags, `--tools` and the working directory. */
export interface ToolPlanOptions extends Omit<ConfiguredSourcesOptions, "onWarning"> {
  /** `--tools` directories, or the default `./tools` when not given. */
  readonly toolDirs: readonly string[];
  /** Whether `--tools` was given. */
  readonly toolDirsExplicit: boolean;
}

/** What a command loads: the config in use and the tool directories. */
export interface ToolPlan {
  /** The config in use (`--config` or `magi-tools.jsonc`, `--mcp-config`; empty without one). */
  readonly config: HostConfig;
  /** The tool directories to load: `--tools`, else `./tools`, or none (see {@link planTools}). */
  readonly toolDirs: string[];
}

/**
 * Load the config and decide which tool directories load: the one place where
 * `--tools` and the config's sources meet, for every command that loads tools.
 *
 * `--tools` directories load as given (a missing one is the loader's error,
 * exit 2 naming it). Without `--tools`, the default `./tools` loads unless it
 * does not exist and the config in use declares a tool source (an enabled MCP
 * server or an OpenAPI API: {@link hasToolSources}); then no module tools load,
 * without an error, so an MCP-only or OpenAPI-only project needs no `./tools`.
 * A `./tools` that exists but is not a directory, or a missing one with no
 * source in the config (`--no-config` reads none), stays the loader's error.
 *
 * A bad config is reported on stderr and resolves {@link Reported} (`config`, exit 2).
 */
export async function planTools(options: ToolPlanOptions): Promise<ToolPlan | Reported> {
  const config = await loadReported(options);
  if (isReported(config)) return config;
  await warnOfUnreadConfig(options, config);
  if (options.toolDirsExplicit || !hasToolSources(config)) {
    return { config, toolDirs: [...options.toolDirs] };
  }
  const present: string[] = [];
  for (const dir of options.toolDirs) if (!await isMissing(dir)) present.push(dir);
  return { config, toolDirs: present };
}

/**
 * Started from another directory (an MCP client's working directory) with `--tools
 * /path/to/project/tools`, the project's `magi-tools.jsonc` is not read: its MCP servers and
 * OpenAPI tools would be missing without a word. Say so on stderr, naming the file and the fix
 * (`--config FILE`); the file is never read unasked (it is code: docs/mcp.md).
 */
async function warnOfUnreadConfig(options: ToolPlanOptions, config: HostConfig): Promise<void> {
  if (!options.toolDirsExplicit || options.noConfig || options.config !== undefined) return;
  if (config.files.length > 0) return;
  const seen = new Set<string>();
  for (const dir of options.toolDirs) {
    const absolute = resolve(options.cwd, dir);
    const candidate = join(dirname(absolute), CONFIG_FILE_NAME);
    if (seen.has(candidate) || dirname(candidate) === resolve(options.cwd)) continue;
    seen.add(candidate);
    if (await isMissing(candidate)) continue;
    writeStderrLine(
      `magi-tools: ${candidate} (next to --tools ${dir}) is not read: no ${CONFIG_FILE_NAME} ` +
        `in the working directory ${options.cwd}, so its MCP servers and OpenAPI tools are ` +
        `not loaded; pass --config ${candidate} (or start in ${dirname(candidate)})`,
    );
  }
}

/** Whether nothing is at `path` (a permission error or another failure is not "missing"). */
async function isMissing(path: string): Promise<boolean> {
  try {
    await stat(path);
    return false;
  } catch (error) {
    return (error as { code?: unknown }).code === "ENOENT";
  }
}

/** The config, or {@link Reported} after reporting a config error (`ConfigError`) on stderr. */
async function loadReported(
  options: Omit<ConfiguredSourcesOptions, "onWarning">,
): Promise<HostConfig | Reported> {
  try {
    return await loadConfig({
      config: options.config,
      noConfig: options.noConfig,
      mcpConfigs: options.mcpConfigs,
      cwd: options.cwd,
      ...(options.trustConfig === undefined ? {} : { trustConfig: options.trustConfig }),
    });
  } catch (error) {
    if (isHostError(error, "config")) {
      writeStderrLine(`magi-tools: ${error.message}`);
      return reported(error.code);
    }
    throw error;
  }
}

/** Options of {@link startPlannedSources}. */
export type PlannedSourcesOptions =
  & Pick<
    ConfiguredSourcesOptions,
    "cwd" | "onWarning" | "startTimeoutMs" | "onToolsChanged"
  >
  & Pick<StartSourcesOptions, "onSignInNeeded">;

/**
 * Start the sources of `plan`'s config. A required source that does not
 * start, or a source whose feature's packages the lockfile lacks
 * (`FeatureUnavailableError`), is reported on stderr and resolves
 * {@link Reported} with its code (exit 2).
 */
export async function startPlannedSources(
  plan: Pick<ToolPlan, "config">,
  options: PlannedSourcesOptions,
): Promise<StartedSources | Reported> {
  try {
    return await startSources(plan.config, {
      cwd: options.cwd,
      onWarning: options.onWarning,
      ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
      ...(options.onToolsChanged === undefined ? {} : { onToolsChanged: options.onToolsChanged }),
      ...(options.onSignInNeeded === undefined ? {} : { onSignInNeeded: options.onSignInNeeded }),
    });
  } catch (error) {
    if (isHostError(error, "config", "source_start", "feature_unavailable")) {
      writeStderrLine(`magi-tools: ${error.message}`);
      return reported(error.code);
    }
    throw error;
  }
}

/**
 * Load the config and start its sources, for a command whose tool directories
 * are already decided ({@link planTools}; the inspector's turns). A bad config,
 * a required source that does not start, or a source whose feature's packages
 * the lockfile lacks is reported on stderr and resolves {@link Reported} (exit 2).
 */
export async function startConfiguredSources(
  options: ConfiguredSourcesOptions,
): Promise<StartedSources | Reported> {
  const config = await loadReported(options);
  if (isReported(config)) return config;
  return await startPlannedSources({ config }, options);
}

/** A warning sink for commands without summary records: one stderr line per warning. */
export function warnOnStderr(warning: SourceWarning): void {
  writeStderrLine(`magi-tools: warning: ${warning.message}`);
}

/**
 * Decide the tool directories ({@link planTools}), start the config's sources, hand their
 * tools and the directories to `use`, and stop the sources whatever `use` does; warnings go
 * to stderr. Resolves with `use`'s exit code, or exit 2 when the config or a required source
 * failed (already reported). For `call`.
 */
export async function withConfiguredSources(
  options: ToolPlanOptions,
  use: (
    tools: readonly ExternalTool[],
    toolDirs: string[],
    configFiles: readonly string[],
  ) => Promise<number>,
): Promise<number> {
  const plan = await planTools(options);
  if (isReported(plan)) return exitCode(plan.code);
  return await withPlannedSources(
    plan,
    options.cwd,
    (tools) => use(tools, plan.toolDirs, plan.config.files),
    options.startTimeoutMs,
  );
}

/**
 * Start `plan`'s sources in `cwd`, hand their tools to `use`, and stop them whatever `use`
 * does; warnings go to stderr. Resolves with `use`'s exit code, or exit 2 when a required
 * source failed (already reported). For the commands that keep the sources for their whole
 * run (`call`, `inspect`).
 */
export async function withPlannedSources(
  plan: ToolPlan,
  cwd: string,
  use: (tools: readonly ExternalTool[]) => Promise<number>,
  startTimeoutMs?: number,
  onSignInNeeded?: StartSourcesOptions["onSignInNeeded"],
): Promise<number> {
  const sources = await startPlannedSources(plan, {
    cwd,
    onWarning: warnOnStderr,
    startTimeoutMs,
    ...(onSignInNeeded === undefined ? {} : { onSignInNeeded }),
  });
  if (isReported(sources)) return exitCode(sources.code);
  try {
    return await use(sources.tools);
  } finally {
    await sources.close();
  }
}
