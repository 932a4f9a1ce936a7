/**
 * Tool discovery: find every tool module in the given directories and load
 * it without giving its code the host's permissions.
 *
 * Under Deno (process isolation available), the host never imports a
 * process-isolated tool module: a zero-permission `deno run` child describes
 * every module (`sandbox/describe_client.ts`), so a module's top-level code
 * runs with no permission at all, and a process tool exists in the host only
 * as its description ({@link DescribedTool}). Modules that describe
 * themselves `isolation: "inline"` (an explicit opt-in to host privileges)
 * are then imported in the host. Without process isolation (Node.js) every
 * module is imported in the host, as every tool runs inline there.
 *
 * Before anything is imported, the process tools' declared scopes are
 * checked against the host's own inputs (`sandbox/host_inputs.ts`): a write
 * scope over a tool directory, a config, `deno.json`, a lockfile,
 * `.magi-tools/`, the host's per-user directories, the describe cache or
 * magi-tools' own modules, or a read scope over the describe cache, fails
 * the load naming the tool, the scope and the input.
 *
 * A tool module is a `.ts`, `.mts`, `.js` or `.mjs` file directly inside a
 * tool directory whose name does not start with `_` or `.` and is not a test
 * (`*_test.*`) or a declaration file (`*.d.ts`). Files are imported
 * concurrently and registered in name order, directory by directory. Each must `export default defineTool(...)`.
 * Anything else fails the whole load with a {@link ToolLoadError} naming the
 * file: a host never silently drops a tool.
 *
 * @module
 */

import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ToolLoadError } from "../errors/mod.ts";
import { isTool, type Tool } from "../tool/define.ts";
import {
  type AnyTool,
  type DescribedTool,
  describedTool,
  type InputSchemaResult,
  sandboxFingerprint,
} from "../sandbox/description.ts";
import type { DescribeOptions } from "../sandbox/describe_client.ts";
import type { DescribeCacheOptions } from "./describe_cache.ts";
import type { DescribeResult } from "../sandbox/describe.ts";
import {
  currentDir,
  type RuntimeName,
  runtimeName,
  supportsProcessIsolation,
} from "../runtime/mod.ts";
import {
  importFailureReason,
  NO_DEFAULT_EXPORT,
  NOT_A_TOOL,
  withDisplayPath,
} from "../tool/load_reasons.ts";

export type { AnyTool, DescribedTool };

/** A tool and where it came from. */
export interface LoadedTool {
  /**
   * The module's default export (inline tools, and every tool without process
   * isolation), or a process-isolated tool's description (its module is never
   * imported in the host).
   */
  readonly tool: AnyTool;
  /** Module path as found: relative when the directory was given relative. */
  readonly file: string;
  /** The module's file URL, as imported. */
  readonly url: string;
  /**
   * An inline tool's input schema as its description holds it: the describe child's conversion
   * of the same module's zod schema with the same function (`inputSchemaOf`), reused by the
   * registry instead of converting again in the host (absent without a description). The
   * host still validates arguments with the module's own zod schema.
   */
  readonly describedInput?: InputSchemaResult;
}

const MODULE_EXTENSION = /\.(?:ts|mts|js|mjs)$/;
const TEST_FILE = /_test\.(?:ts|mts|js|mjs)$/;
const REASON_CHARS = 500;

/** Whether a directory entry name is a tool module by the naming rules. */
export function isToolModuleName(name: string): boolean {
  return MODULE_EXTENSION.test(name) && !name.startsWith("_") && !name.startsWith(".") &&
    !TEST_FILE.test(name) && !name.endsWith(".d.ts");
}

/**
 * Load every tool module of `dirs`: all directories are listed first, then
 * every module is described in the zero-permission child (Deno; see the
 * module doc) and the inline ones (on Node.js: all) are imported
 * concurrently in the host; the results are checked in order (directory by
 * directory, name order), so the error reported is the first one in that
 * order. Every module is evaluated even when an earlier one fails.
 *
 * @throws {ToolLoadError} for a missing or unreadable directory, a module that
 * fails to import or throws while loading (needing a permission at load time
 * names it: `Tool module needs read access at load time, which is not
 * allowed: <file>`), one that ends the describe child or does not finish
 * loading within its bound, a missing default export, a default
 * export that is not a `defineTool` result, or a tool name already used by an
 * earlier module (the error names both files).
 *
 * @example
 * ```ts ignore
 * import { loadToolDirs } from "./discovery.ts";
 * const loaded = await loadToolDirs(["tools"]);
 * console.log(loaded.map((entry) => `${entry.tool.name} from ${entry.file}`));
 * ```
 */
export async function loadToolDirs(
  dirs: readonly string[],
  options: LoadOptions = {},
): Promise<LoadedTool[]> {
  const { files, urls, described, cacheDir } = await (options.prepared ??
    prepareToolDirs(dirs, options));
  if (described !== null) await checkScopes(dirs, files, described, { ...options, cacheDir });
  // Import the modules that run in the host at once (the loader fetches and compiles them
  // together), then check them in order: the error reported is the first in name order.
  const imports = files.map((file, index) => {
    const url = urls[index]!;
    const description = described?.[index];
    if (description !== undefined) {
      if (!description.ok) {
        return Promise.resolve({ error: describeError(file, url, description) });
      }
      if (description.tool.isolation !== "inline") {
        return Promise.resolve({ tool: describedTool(description.tool) as AnyTool, url });
      }
    }
    return importTool(file, url).then(
      (tool) => {
        if (description === undefined) return { tool: tool as AnyTool, url };
        if (sandboxFingerprint(tool) !== sandboxFingerprint(describedTool(description.tool))) {
          return { error: new ToolLoadError(file, "the module described itself differently") };
        }
        return { tool: tool as AnyTool, url, describedInput: description.tool.input };
      },
      (error: unknown) => ({ error }),
    );
  });
  const settled = await Promise.all(imports);
  const loaded: LoadedTool[] = [];
  const fileOfName = new Map<string, string>();
  for (const [index, file] of files.entries()) {
    const outcome = settled[index]!;
    if ("error" in outcome) throw outcome.error;
    const { tool, url } = outcome;
    const describedInput = "describedInput" in outcome ? outcome.describedInput : undefined;
    const earlier = fileOfName.get(tool.name);
    if (earlier !== undefined) {
      const reason = `tool name ${tool.name} is already defined in ${earlier}`;
      throw new ToolLoadError(file, reason, {
        message: `Duplicate tool name: ${tool.name} in ${earlier} and ${file}; rename one of them`,
      });
    }
    fileOfName.set(tool.name, file);
    loaded.push(Object.freeze({ tool, file, url, ...(describedInput ? { describedInput } : {}) }));
  }
  return loaded;
}

/** The modules of some tool directories, listed and (under Deno) described; nothing imported. */
export interface PreparedToolDirs {
  /** Module paths, in load order. */
  readonly files: readonly string[];
  /** Their file URLs. */
  readonly urls: readonly string[];
  /** Each module's description, or null when modules are imported in the host (Node.js). */
  readonly described: readonly DescribeResult[] | null;
  /** The describe cache directory in use (absolute), or null when the cache is off. */
  readonly cacheDir: string | null;
}

/**
 * The first half of {@link loadToolDirs}: list the modules and describe them
 * in the zero-permission child, importing nothing in the host. `run` starts
 * it together with the backend so the two boots overlap, and hands the
 * promise to `loadToolDirs` (`prepared`). Rejects as `loadToolDirs` would
 * for a directory that cannot be read.
 */
export async function prepareToolDirs(
  dirs: readonly string[],
  options: LoadOptions = {},
): Promise<PreparedToolDirs> {
  const files: string[] = [];
  for (const dir of dirs) files.push(...await listModules(dir));
  const urls = files.map((file) => pathToFileURL(resolve(file)).href);
  const isolate = options.describe !== false && supportsProcessIsolation();
  if (!isolate) return { files, urls, described: null, cacheDir: null };
  const { cacheDirOf } = await import("./describe_cache.ts");
  const cache = options.describeCache === false ? { dir: null } : options.describeCache ?? {};
  const cacheDir = cacheDirOf(cache);
  const described = await describeAll(files, urls, {
    ...options,
    describeCache: { ...cache, dir: cacheDir },
  });
  return { files, urls, described, cacheDir };
}

/** Options of {@link loadToolDirs}. */
export interface LoadOptions {
  /** {@link prepareToolDirs} of the same directories, already started. */
  readonly prepared?: Promise<PreparedToolDirs>;
  /**
   * How to run the describe child (Deno), or `false` to import every module
   * in the host (as on Node.js; for tests of in-host loading only).
   */
  readonly describe?: DescribeOptions | false;
  /**
   * The description cache (`describe_cache.ts`): where it lives and how
   * misses are described, or `false` to describe every module. Default: on,
   * in `MAGI_TOOLS_CACHE_DIR` or the user's cache directory (off when neither
   * can be known); never in the working directory.
   */
  readonly describeCache?: DescribeCacheOptions | false;
  /**
   * The tools' working directory, against which their declared scopes resolve
   * (`run --cwd`); default the host's working directory.
   */
  readonly cwd?: string;
  /** The config files in use (`magi-tools.jsonc`, `--config`, `--mcp-config`): host inputs. */
  readonly configFiles?: readonly string[];
}

/**
 * Refuse a process tool whose declared scopes overlap the host's inputs
 * (`sandbox/host_inputs.ts`), before any module is imported in the host.
 */
async function checkScopes(
  dirs: readonly string[],
  files: readonly string[],
  described: readonly DescribeResult[],
  options: LoadOptions & { cacheDir: string | null },
): Promise<void> {
  const { checkToolScopes, hostInputs } = await import("../sandbox/host_inputs.ts");
  const hostCwd = currentDir();
  const toolCwd = options.cwd ?? hostCwd;
  const tools = described.flatMap((result, index) =>
    result.ok ? [{ tool: describedTool(result.tool), file: files[index]! }] : []
  );
  if (!tools.some((entry) => entry.tool.isolation !== "inline")) return;
  const inputs = hostInputs({
    toolDirs: dirs,
    hostCwd,
    toolCwd,
    cacheDir: options.cacheDir,
    ...(options.configFiles === undefined ? {} : { configFiles: options.configFiles }),
  });
  checkToolScopes(tools, inputs, toolCwd);
}

/**
 * Check the process tools of `prepared` against the host inputs of another working directory
 * the tools will run in (`options.cwd`, e.g. a batch item's): their relative scopes resolve
 * against it. Nothing to check without descriptions (Node.js).
 *
 * @throws {ToolLoadError} as {@link loadToolDirs} does for its own working directory.
 */
export async function checkToolScopesAt(
  dirs: readonly string[],
  prepared: PreparedToolDirs,
  options: { cwd: string; configFiles?: readonly string[] },
): Promise<void> {
  if (prepared.described === null) return;
  await checkScopes(dirs, prepared.files, prepared.described, {
    ...options,
    cacheDir: prepared.cacheDir,
  });
}

async function describeAll(
  files: readonly string[],
  urls: readonly string[],
  options: LoadOptions,
): Promise<DescribeResult[]> {
  if (files.length === 0) return [];
  const { describeModulesCached } = await import("./describe_cache.ts");
  const modules = files.map((file, index) => ({ file, url: urls[index]! }));
  const describe = options.describe === false ? {} : options.describe;
  return await describeModulesCached(
    modules,
    describe,
    options.describeCache === false ? { dir: null } : options.describeCache,
  );
}

function describeError(
  file: string,
  url: string,
  result: DescribeResult & { ok: false },
): ToolLoadError {
  if (result.permission !== undefined) {
    return new ToolLoadError(file, result.reason, {
      message:
        `Tool module needs ${result.permission} access at load time, which is not allowed: ${file}`,
    });
  }
  return new ToolLoadError(file, withDisplayPath(result.reason, url, file));
}

async function listModules(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason = code === "ENOENT"
      ? "directory not found"
      : code === "ENOTDIR"
      ? "not a directory"
      : describe(error);
    throw new ToolLoadError(dir, reason, {
      message: `Tool directory cannot be read: ${dir}: ${reason}`,
      cause: error,
    });
  }
  const names = entries.filter((entry) => isToolModuleName(entry.name)).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  );
  const files: string[] = [];
  for (const entry of names) {
    const file = join(dir, entry.name);
    if (entry.isFile() || (entry.isSymbolicLink() && await isFileTarget(file))) files.push(file);
  }
  return files;
}

async function isFileTarget(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function importTool(file: string, url: string): Promise<Tool> {
  let module: Record<string, unknown>;
  try {
    module = await import(url);
  } catch (error) {
    const hint = typeScriptOnNode(file, runtimeName());
    throw new ToolLoadError(file, hint ?? withDisplayPath(importFailureReason(error), url, file), {
      cause: error,
      ...(hint === null ? {} : { message: `Tool module failed to load: ${file}: ${hint}` }),
    });
  }
  if (!("default" in module)) throw new ToolLoadError(file, NO_DEFAULT_EXPORT);
  if (!isTool(module.default)) throw new ToolLoadError(file, NOT_A_TOOL);
  return module.default;
}

/**
 * Why a TypeScript tool module cannot load on Node.js (which imports only
 * JavaScript tool modules), or null for a `.js`/`.mjs` file or another runtime.
 *
 * @example
 * ```ts
 * import { typeScriptOnNode } from "./discovery.ts";
 * console.assert(typeScriptOnNode("tools/a.ts", "node")?.includes(".mjs"));
 * console.assert(typeScriptOnNode("tools/a.ts", "deno") === null);
 * ```
 */
export function typeScriptOnNode(file: string, runtime: RuntimeName): string | null {
  if (runtime !== "node" || !/\.m?ts$/.test(file)) return null;
  return "Node.js loads tool modules as JavaScript: compile this TypeScript module to .js or .mjs " +
    "(or run the tools under Deno)";
}

function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS)}…` : line;
}
