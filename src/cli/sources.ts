/**
 * The CLI's glue to external tool sources: load the config and start its
 * sources (`src/config/sources.ts`), and the summary records they cause
 * (`tool.progress`, `host.warning`).
 *
 * @module
 */

import { FeatureUnavailableError } from "../config/features.ts";
import { ConfigError, loadConfig } from "../config/mod.ts";
import {
  SourceStartError,
  type SourceWarning,
  type StartedSources,
  startSources,
} from "../config/sources.ts";
import type { ExternalTool, ToolProgress } from "../host/external.ts";
import { writeStderrLine } from "../runtime/mod.ts";
import type { SummaryInput } from "../summary/records.ts";
import type { SummaryWriter } from "../summary/writer.ts";
import { EXIT } from "./exit_codes.ts";

/** The `tool.progress` record of one progress notification of call `callId` in run `runId`. */
export function progressRecord(
  runId: string,
  callId: string,
  name: string,
  update: ToolProgress,
): SummaryInput {
  return {
    type: "tool.progress",
    run_id: runId,
    call_id: callId,
    name,
    progress: update.progress,
    ...(update.total === undefined ? {} : { total: update.total }),
    ...(update.message === undefined ? {} : { message: update.message }),
  };
}

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
}

/**
 * Load the config and start its sources. A bad config, a required source
 * that does not start, or a source whose feature's packages the lockfile
 * lacks ({@link FeatureUnavailableError}) is reported on stderr and resolves
 * null (exit 2).
 */
export async function startConfiguredSources(
  options: ConfiguredSourcesOptions,
): Promise<StartedSources | null> {
  try {
    const config = await loadConfig({
      config: options.config,
      noConfig: options.noConfig,
      mcpConfigs: options.mcpConfigs,
      cwd: options.cwd,
    });
    return await startSources(config, { cwd: options.cwd, onWarning: options.onWarning });
  } catch (error) {
    if (
      error instanceof ConfigError || error instanceof SourceStartError ||
      error instanceof FeatureUnavailableError
    ) {
      writeStderrLine(`magi-tools: ${error.message}`);
      return null;
    }
    throw error;
  }
}

/** A warning sink for commands without summary records: one stderr line per warning. */
export function warnOnStderr(warning: SourceWarning): void {
  writeStderrLine(`magi-tools: warning: ${warning.message}`);
}

/**
 * Start the config's sources, hand their tools to `use`, and stop them whatever `use` does;
 * warnings go to stderr. Resolves with `use`'s exit code, or exit 2 when the config or a
 * required source failed (already reported). For the commands that keep the sources for
 * their whole run (`call`, `inspect`).
 */
export async function withConfiguredSources(
  options: Omit<ConfiguredSourcesOptions, "onWarning">,
  use: (tools: readonly ExternalTool[]) => Promise<number>,
): Promise<number> {
  const sources = await startConfiguredSources({ ...options, onWarning: warnOnStderr });
  if (sources === null) return EXIT.usage;
  try {
    return await use(sources.tools);
  } finally {
    await sources.close();
  }
}
