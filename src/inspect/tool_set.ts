/**
 * The inspector's current tool set: the registry loaded from the tool
 * directories, an executor over it (default `client.tools` limits, as for
 * `call`), and the load errors of the latest attempt. {@link ToolSet.watch}
 * reloads on every change in a tool directory: the registry is rebuilt and
 * re-validated, and only a valid new set replaces the old one (the old one
 * stays, with the new errors shown, until the files are fixed).
 *
 * Process-isolated tools (the default) are described and run in fresh
 * processes, so their edits are always seen. An inline tool's module is
 * imported into the inspector's own process, where the runtime caches it: a
 * changed inline tool needs an inspector restart.
 *
 * @module
 */

import { isHostError, ToolLoadError } from "../errors/mod.ts";
import { loadToolDirs } from "../toolset/discovery.ts";
import type { ToolInfo } from "../tool/define.ts";
import { ToolExecutor } from "../call/executor.ts";
import type { ExternalTool } from "../tool/external.ts";
import { ToolRegistry } from "../toolset/registry.ts";
import { type Watch, watchPaths } from "../toolset/watch.ts";
import { formatToolPermissions, toolSandboxInfo } from "../sandbox/mod.ts";
import type { ToolLog } from "../sandbox/log_buffer.ts";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { REQUIRED_CAPABILITIES } from "../run/backend_run.ts";
import type { SignInView } from "./sign_in.ts";

/** One load error as the page shows it. */
export interface LoadProblem {
  /** The module or directory at fault (or `registry`). */
  readonly file: string;
  /** Why. */
  readonly reason: string;
}

/** One tool as the page shows it. */
export interface ToolView {
  /** Tool name. */
  readonly name: string;
  /** Its module file, or `<kind>:<name>` of its config source (e.g. `mcp:fs`). */
  readonly source: string;
  /** `read` or `write`. */
  readonly effect: string;
  /** `process`, `inline` or `external`. */
  readonly isolation: string;
  /** Isolation and permissions in one line (as `tools` prints them). */
  readonly permissions: string;
  /** Memory cap of its process, MiB, or null. */
  readonly memory_mb: number | null;
  /** Description. */
  readonly description: string;
  /** The JSON Schema sent to the backend. */
  readonly input_schema: unknown;
  /** The tool's `timeout_ms`, or null (the default `call_timeout_ms`). */
  readonly timeout_ms: number | null;
  /** Serialized bytes of its definition (counted against the `initialize` frame). */
  readonly definition_bytes: number;
  /** Serialized bytes of its input schema (bound: `schema_bytes`). */
  readonly schema_bytes: number;
  /** UTF-8 bytes of its description (bound: `description_bytes`). */
  readonly description_bytes: number;
  /** `tool_id`. */
  readonly tool_id: string;
}

/** The whole state the page shows. */
export interface ToolSetView {
  /** Increases with every successful (re)load. */
  readonly version: number;
  /** The current tools. */
  readonly tools: readonly ToolView[];
  /** Problems of the latest load attempt (empty when it succeeded). */
  readonly errors: readonly LoadProblem[];
  /** The `initialize` frame budget: bytes used, the bound, bytes left. */
  readonly budget: { used: number; frame: number; remaining: number; tools: number };
  /** `client.tools` bounds a definition counts against. */
  readonly limits: { description_bytes: number; schema_bytes: number; tools: number };
  /** The MCP servers that can be signed in from the page (`sign_in.ts`), in config order. */
  readonly sign_ins: readonly SignInView[];
}

/** Options of {@link ToolSet}. */
export interface ToolSetOptions {
  /** Tool directories. */
  readonly dirs: readonly string[];
  /** The config's external tools (MCP, OpenAPI), started once by the caller. */
  readonly external?: readonly ExternalTool[];
  /**
   * Sources left out at the start, shown first among the errors on every view (an MCP server
   * that needs `magi-tools login NAME`: `file` is `mcp:NAME`, the reason names the command),
   * until {@link ToolSet.addSource} adds that source.
   */
  readonly sourceProblems?: readonly LoadProblem[];
  /** Working directory of the tools (`ctx.cwd`). */
  readonly cwd: string;
  /** The config files in use: host inputs no tool may write (`sandbox/host_inputs.ts`). */
  readonly configFiles?: readonly string[];
  /** Each process-isolated call's captured output. */
  readonly onLog?: (log: ToolLog) => void;
  /** Called after each reload attempt (success or failure). */
  readonly onChange?: (view: ToolSetView) => void;
  /** Quiet time after a file change before reloading, ms; default 200. */
  readonly debounceMs?: number;
  /** The sign-ins the page can start (shown in every view); default none. */
  readonly signIns?: () => readonly SignInView[];
}

/** The current registry and executor, reloaded on change. */
export class ToolSet {
  readonly #options: ToolSetOptions;
  /** The config's external tools: the options' and those of sources added later. */
  readonly #external: ExternalTool[];
  /** The options' source problems less those of sources added since. */
  #sourceProblems: readonly LoadProblem[];
  #registry: ToolRegistry | null = null;
  #executor: ToolExecutor | null = null;
  #errors: LoadProblem[] = [];
  #version = 0;
  #watcher: Watch | null = null;
  #reloading: Promise<void> = Promise.resolve();
  #closed = false;

  /** A tool set over `options.dirs` (call {@link ToolSet.reload} to load it). */
  constructor(options: ToolSetOptions) {
    this.#options = options;
    this.#external = [...options.external ?? []];
    this.#sourceProblems = options.sourceProblems ?? [];
  }

  /** The current registry and executor, or null when no set ever loaded. */
  get current(): { registry: ToolRegistry; executor: ToolExecutor } | null {
    if (this.#registry === null || this.#executor === null) return null;
    return { registry: this.#registry, executor: this.#executor };
  }

  /** Load the tool set again; the old one stays when the new one is not valid. */
  reload(): Promise<void> {
    this.#reloading = this.#reloading.then(() => this.#load());
    return this.#reloading;
  }

  async #load(): Promise<void> {
    if (this.#closed) return;
    let registry: ToolRegistry;
    try {
      const { cwd, configFiles } = this.#options;
      const loaded = await loadToolDirs(this.#options.dirs, {
        cwd,
        ...(configFiles === undefined ? {} : { configFiles }),
      });
      registry = ToolRegistry.fromLoaded(loaded, {
        requiredCapabilities: REQUIRED_CAPABILITIES,
        external: this.#external,
      });
    } catch (error) {
      if (error instanceof ToolLoadError) {
        this.#errors = [{ file: error.file, reason: error.reason }];
      } else if (isHostError(error, "registry")) {
        this.#errors = [{ file: "registry", reason: error.message }];
      } else {
        this.#errors = [{ file: "registry", reason: String(error) }];
      }
      this.#options.onChange?.(this.view());
      return;
    }
    if (this.#closed) return;
    const old = this.#executor;
    this.#registry = registry;
    this.#executor = new ToolExecutor(registry, {
      limits: CLIENT_TOOLS_LIMITS,
      cwd: this.#options.cwd,
      ...(this.#options.onLog === undefined ? {} : { onLog: this.#options.onLog }),
    });
    this.#errors = [];
    this.#version++;
    this.#options.onChange?.(this.view());
    // Calls still running on the old set end as tool_crashed; its processes are reaped.
    await old?.close();
  }

  /**
   * Add the tools of `source` (`mcp:NAME`, started after its sign-in), drop its problem, and
   * reload; resolves when the new set is loaded (or its errors are shown).
   */
  addSource(source: string, tools: readonly ExternalTool[]): Promise<void> {
    this.#external.push(...tools);
    this.#sourceProblems = this.#sourceProblems.filter((problem) => problem.file !== source);
    return this.reload();
  }

  /** Reload whenever a file in a tool directory changes (until {@link ToolSet.close}). */
  watch(): void {
    if (this.#watcher !== null || this.#closed) return;
    this.#watcher = watchPaths(
      { dirs: this.#options.dirs },
      () => void this.reload(),
      this.#options.debounceMs,
    );
  }

  /** The page's view of the current state. */
  view(): ToolSetView {
    const registry = this.#registry;
    const budget = registry?.budget();
    return {
      version: this.#version,
      tools: registry === null ? [] : registry.tools.map((entry) => {
        // External tools (MCP, OpenAPI) have no sandbox settings: their work happens in the source.
        const module = entry.source.kind === "module";
        const info = module ? toolSandboxInfo(entry.tool as ToolInfo) : null;
        return {
          name: entry.definition.name,
          source: entry.file,
          effect: entry.definition.effect,
          isolation: info?.isolation ?? "external",
          permissions: info === null
            ? `external (${entry.source.kind} server ${entry.source.name})`
            : formatToolPermissions(entry.tool as ToolInfo),
          memory_mb: info?.memoryMb ?? null,
          description: entry.definition.description,
          input_schema: entry.definition.input_schema,
          timeout_ms: entry.definition.timeout_ms ?? null,
          definition_bytes: entry.definitionBytes,
          schema_bytes: utf8ByteLength(JSON.stringify(entry.definition.input_schema)),
          description_bytes: utf8ByteLength(entry.definition.description),
          tool_id: entry.toolId,
        };
      }),
      errors: [...this.#sourceProblems, ...this.#errors],
      budget: {
        used: budget?.usedBytes ?? 0,
        frame: budget?.frameBytes ?? 0,
        remaining: budget?.remainingBytes ?? 0,
        tools: registry?.tools.length ?? 0,
      },
      limits: {
        description_bytes: CLIENT_TOOLS_LIMITS.description_bytes,
        schema_bytes: CLIENT_TOOLS_LIMITS.schema_bytes,
        tools: CLIENT_TOOLS_LIMITS.tools,
      },
      sign_ins: this.#options.signIns?.() ?? [],
    };
  }

  /** Stop watching, wait for a reload in progress, and reap every tool process. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#watcher?.close();
    await this.#reloading.catch(() => {});
    await this.#executor?.close();
  }
}
