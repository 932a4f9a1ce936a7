/**
 * Live reload of a front door's tools (`mcp --watch`): the tool directories and the config
 * files are watched (`toolset/watch.ts`, the inspector's watcher), and on a change the tools
 * load again exactly as at startup. A tool directory's change rebuilds the registry with the
 * running sources; a config file's change loads the config again (so trust is checked again:
 * a project config that now needs approval is refused like at startup), starts its sources
 * and rebuilds the registry. An MCP server's `notifications/tools/list_changed` rebuilds the
 * registry with its new tools. Only a set that loads completely replaces the served one: on
 * any error the old set (and its sources) stays, and stderr says why, naming the file.
 *
 * @module
 */

import { resolve } from "node:path";
import { CONFIG_FILE_NAME } from "../config/mod.ts";
import type { StartedSources } from "../sources/start.ts";
import { isReported } from "../errors/mod.ts";
import type { ToolRegistry } from "../toolset/registry.ts";
import { type Watch, watchPaths } from "../toolset/watch.ts";
import { writeStderrLine } from "../runtime/mod.ts";
import { loadRegistry } from "./load_registry.ts";
import {
  planTools,
  startPlannedSources,
  type ToolPlan,
  type ToolPlanOptions,
  warnOnStderr,
} from "./sources.ts";

/** Options of {@link LiveTools}. */
export interface LiveToolsOptions {
  /** How the tools were planned (the command's flags and working directory). */
  readonly planOptions: ToolPlanOptions;
  /** The plan the first set was loaded from. */
  readonly plan: ToolPlan;
  /** Its started sources (owned by the {@link LiveTools} from now on). */
  readonly sources: StartedSources;
  /** Receives each new registry that loaded completely. */
  readonly onRegistry: (registry: ToolRegistry) => void;
  /** Prefix of the stderr lines, e.g. `magi-tools mcp`. */
  readonly label: string;
}

/** The files whose change reloads the config: the one in use or the default, `--mcp-config`s. */
export function watchedConfigFiles(options: ToolPlanOptions): string[] {
  const project = options.config !== undefined
    ? [options.config]
    : options.noConfig
    ? []
    : [CONFIG_FILE_NAME];
  return [...project, ...options.mcpConfigs].map((file) => resolve(options.cwd, file));
}

/** A tool set that reloads on change (see the module comment). */
export class LiveTools {
  readonly #options: LiveToolsOptions;
  #plan: ToolPlan;
  #sources: StartedSources;
  #watch: Watch | null = null;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  /** Live tools from the first set's plan and sources; call {@link LiveTools.watch}. */
  constructor(options: LiveToolsOptions) {
    this.#options = options;
    this.#plan = options.plan;
    this.#sources = options.sources;
  }

  /** What the sources started for this set call when an MCP server changed its tools. */
  readonly onToolsChanged = (): void => this.reload(false);

  /** Start watching the tool directories and config files. */
  watch(): void {
    if (this.#watch !== null || this.#closed) return;
    const configFiles = watchedConfigFiles(this.#options.planOptions);
    const config = new Set(configFiles);
    this.#watch = watchPaths(
      { dirs: this.#plan.toolDirs, files: configFiles },
      (paths) => this.reload(paths.some((path) => config.has(resolve(path)))),
    );
  }

  /** Load again (after the reloads queued before); with `config`, the config and sources too. */
  reload(config: boolean): void {
    this.#queue = this.#queue.then(() => this.#reload(config)).catch((error: unknown) => {
      this.#say(`tools not reloaded (the old set stays): ${String(error)}`);
    });
  }

  /** Wait for the reloads queued so far (tests). */
  settled(): Promise<void> {
    return this.#queue;
  }

  async #reload(config: boolean): Promise<void> {
    if (this.#closed) return;
    let plan = this.#plan;
    let sources = this.#sources;
    let fresh: StartedSources | null = null;
    if (config) {
      // Trust is checked again, as at startup: planTools reports a refusal on stderr.
      const next = await planTools(this.#options.planOptions);
      if (isReported(next)) return this.#say("config not reloaded (the old set stays)");
      const started = await startPlannedSources(next, {
        cwd: this.#options.planOptions.cwd,
        onWarning: warnOnStderr,
        startTimeoutMs: this.#options.planOptions.startTimeoutMs,
        onToolsChanged: this.onToolsChanged,
      });
      if (isReported(started)) return this.#say("config not reloaded (the old set stays)");
      plan = { ...next, toolDirs: this.#plan.toolDirs };
      sources = started;
      fresh = started;
    }
    const registry = await loadRegistry(plan.toolDirs, {
      external: sources.tools,
      cwd: this.#options.planOptions.cwd,
      configFiles: plan.config.files,
    });
    if (isReported(registry) || this.#closed) {
      await fresh?.close();
      if (isReported(registry)) this.#say("tools not reloaded (the old set stays)");
      return;
    }
    const old = this.#sources;
    this.#plan = plan;
    this.#sources = sources;
    this.#options.onRegistry(registry);
    this.#say(`reloaded: ${registry.tools.length} tool(s)`);
    if (fresh !== null) await old.close();
  }

  #say(line: string): void {
    writeStderrLine(`${this.#options.label}: ${line}`);
  }

  /** Stop watching, wait for a reload in progress, stop the current sources. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#watch?.close();
    await this.#queue;
    await this.#sources.close();
  }
}
