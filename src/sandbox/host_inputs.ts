/**
 * The host's own inputs kept out of every tool process's reach (Deno only).
 *
 * A process tool's declared file scopes are compared, at load time and
 * before any tool module is imported in the host, with what the host itself
 * reads to decide what it runs:
 *
 * - its `write` scope (each entry, or `write: true`) must not overlap (contain, equal or lie
 *   inside) any host input: every tool directory the command loads, the config files in use
 *   (and the default `magi-tools.jsonc` of the working directory), the `deno.json`/`deno.jsonc`
 *   that Deno would find from the host's and the tools' working directories (also where none
 *   exists yet: a new one nearer would take over) with its lockfile and every `deno*.lock`
 *   beside it, the project's `.magi-tools/`, the describe cache directory, the host's per-user
 *   config and state directories (`userDir`: approvals, tokens), and magi-tools' own modules when
 *   they are local files (`src/`, `mod.ts`, `cli.ts`, its `deno.json` and lockfiles);
 * - its `read` scope must not overlap the describe cache directory (its HMAC secret) or the
 *   host's per-user state directory (the `mcp --http` bearer token files).
 *
 * A tool that breaks either rule is refused with a {@link ToolLoadError} naming the tool, the
 * scope and the input: a refusal at load time holds the same at the Deno layer and the kernel
 * layer, with no window between a check and a use, where a carve-out would need a Landlock rule
 * that cannot take a subdirectory back out of a granted parent. Inline tools are not checked:
 * they run in the host with its permissions by their own declaration.
 *
 * Paths are compared by their real paths (symlinks resolved); a path that does not exist is
 * its deepest existing ancestor's real path joined with the rest. Paths the host may not read
 * (it never asks for a permission here) are compared as written, resolved against the
 * working directory.
 *
 * @example
 * ```ts
 * import { overlaps } from "./host_inputs.ts";
 * console.assert(overlaps("/p", "/p/tools") && overlaps("/p/tools/x.ts", "/p/tools"));
 * console.assert(!overlaps("/p/notes", "/p/tools"));
 * ```
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import type { ToolInfo } from "../tool/define.ts";
import { userDir } from "../runtime/mod.ts";
import { ToolLoadError } from "../errors/mod.ts";
import { isolationOf } from "./permissions.ts";

/** One input of the host, by real path. */
export interface HostInput {
  /** Absolute real path (see the module doc). */
  readonly path: string;
  /** What it is, for the error: `tool directory`, `config file`, `describe cache`, … */
  readonly what: string;
}

/** What {@link hostInputs} collects. */
export interface HostInputOptions {
  /** Tool directories the command loads (relative to the host's working directory). */
  readonly toolDirs: readonly string[];
  /** Config files in use (`magi-tools.jsonc`, `--config`, `--mcp-config`). */
  readonly configFiles?: readonly string[];
  /** The host's working directory (the describe child resolves its `deno.json` from it). */
  readonly hostCwd: string;
  /** The tools' working directory (their scopes resolve against it). */
  readonly toolCwd: string;
  /** The describe cache directory, or null when the cache is off. */
  readonly cacheDir: string | null;
}

/** The `what` of the describe cache directory. */
export const CACHE_INPUT = "describe cache";
/** The `what` of the per-user state directory, which holds secrets (`mcp --http` tokens). */
const STATE_INPUT = "host state directory (tokens)";
/** Inputs no tool may read either: they hold secrets. */
const SECRET_INPUTS: ReadonlySet<string> = new Set([CACHE_INPUT, STATE_INPUT]);

const CONFIG_NAMES = ["deno.json", "deno.jsonc"];
/** magi-tools' own package root (this file is `src/sandbox/host_inputs.ts`). */
const PACKAGE_ROOT = new URL("../../", import.meta.url);
const LOCKFILE = /^deno(?:\.[\w-]+)?\.lock$/;

/** Whether the host may read `path` without a prompt. */
function mayRead(path: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "read", path }).state === "granted";
  } catch {
    return false;
  }
}

/**
 * `path`'s real path: of its deepest existing ancestor, joined with the rest; as given
 * (resolved) where the host may not read it.
 */
export function realPathOf(path: string): string {
  const absolute = resolve(path);
  const rest: string[] = [];
  for (let current = absolute;;) {
    if (!mayRead(current)) return absolute;
    try {
      return join(Deno.realPathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return absolute;
      rest.push(basename(current));
      current = parent;
    }
  }
}

/** Whether one of two absolute paths contains the other (or they are equal). */
export function overlaps(a: string, b: string): boolean {
  return inside(a, b) || inside(b, a);
}

function inside(child: string, parent: string): boolean {
  const path = relative(parent, child);
  return path === "" || (path !== ".." && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

function exists(path: string): boolean {
  if (!mayRead(path)) return false;
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The Deno configuration candidates from `cwd` upwards, and the lockfiles of the one found. */
function denoConfigInputs(cwd: string): HostInput[] {
  const inputs: HostInput[] = [];
  for (let dir = resolve(cwd);;) {
    let found: string | null = null;
    for (const name of CONFIG_NAMES) {
      const path = join(dir, name);
      inputs.push({ path, what: "Deno configuration" });
      if (found === null && exists(path)) found = path;
    }
    if (found !== null) {
      for (const lock of lockfilesOf(found)) inputs.push({ path: lock, what: "lockfile" });
      return inputs;
    }
    const parent = dirname(dir);
    if (parent === dir) return inputs;
    dir = parent;
  }
}

/** `deno.lock`, every other `deno*.lock` beside `config`, and a `lock` path it names. */
function lockfilesOf(config: string): string[] {
  const dir = dirname(config);
  const locks = new Set([join(dir, "deno.lock")]);
  if (mayRead(dir)) {
    try {
      for (const entry of Deno.readDirSync(dir)) {
        if (LOCKFILE.test(entry.name)) locks.add(join(dir, entry.name));
      }
    } catch {
      // Unlistable: the default lockfile name still counts.
    }
  }
  try {
    const text = mayRead(config) ? Deno.readTextFileSync(config) : "";
    const named = /"lock"\s*:\s*(?:"([^"]+)"|\{[^}]*"path"\s*:\s*"([^"]+)")/.exec(text);
    const path = named?.[1] ?? named?.[2];
    if (path !== undefined) locks.add(resolve(dir, path));
  } catch {
    // Unreadable: the lockfiles beside it still count.
  }
  return [...locks];
}

/** magi-tools' own modules and configuration, when they are local files; else none. */
function packageInputs(): HostInput[] {
  if (PACKAGE_ROOT.protocol !== "file:") return [];
  const root = fromFileUrl(PACKAGE_ROOT);
  const what = "magi-tools module";
  const inputs: HostInput[] = ["src", "mod.ts", "cli.ts"].map((name) => ({
    path: join(root, name),
    what,
  }));
  for (const name of CONFIG_NAMES) {
    const path = join(root, name);
    if (!exists(path)) continue;
    inputs.push({ path, what: "Deno configuration" });
    for (const lock of lockfilesOf(path)) inputs.push({ path: lock, what: "lockfile" });
  }
  return inputs;
}

/** Every host input of this load (see the module doc), by real path. */
export function hostInputs(options: HostInputOptions): HostInput[] {
  const { hostCwd, toolCwd } = options;
  const inputs: HostInput[] = [
    ...options.toolDirs.map((dir) => ({ path: resolve(hostCwd, dir), what: "tool directory" })),
    ...(options.configFiles ?? []).map((file) => ({
      path: resolve(hostCwd, file),
      what: "config file",
    })),
  ];
  for (const cwd of new Set([resolve(hostCwd), resolve(toolCwd)])) {
    inputs.push({ path: join(cwd, "magi-tools.jsonc"), what: "config file" });
    inputs.push({ path: join(cwd, ".magi-tools"), what: "host state directory" });
    inputs.push(...denoConfigInputs(cwd));
  }
  if (options.cacheDir !== null) inputs.push({ path: options.cacheDir, what: CACHE_INPUT });
  for (const kind of ["config", "state"] as const) {
    const dir = userDir(kind);
    if (dir !== null) {
      inputs.push({ path: dir, what: kind === "state" ? STATE_INPUT : `host ${kind} directory` });
    }
  }
  inputs.push(...packageInputs());
  const seen = new Set<string>();
  return inputs.flatMap(({ path, what }) => {
    const real = realPathOf(path);
    if (seen.has(real)) return [];
    seen.add(real);
    return [{ path: real, what }];
  });
}

/** A tool as {@link checkToolScopes} reads it: its description and where it came from. */
export interface ScopedTool {
  readonly tool: Pick<ToolInfo, "name" | "isolation" | "permissions">;
  readonly file: string;
}

/**
 * Refuse the first process tool whose `write` scope overlaps a host input or whose `read`
 * scope overlaps the describe cache (see the module doc).
 *
 * @throws {ToolLoadError} naming the tool, its scope and the input.
 */
export function checkToolScopes(
  tools: readonly ScopedTool[],
  inputs: readonly HostInput[],
  toolCwd: string,
): void {
  for (const { tool, file } of tools) {
    if (isolationOf(tool) === "inline") continue;
    for (const kind of ["write", "read"] as const) {
      const grant = tool.permissions?.[kind];
      if (grant === undefined || grant === false) continue;
      const entries = grant === true ? [null] : grant;
      const guarded = kind === "write" ? inputs : inputs.filter((i) => SECRET_INPUTS.has(i.what));
      for (const entry of entries) {
        const scope = entry === null ? null : realPathOf(resolve(toolCwd, entry));
        const hit = guarded.find((input) => scope === null || overlaps(scope, input.path));
        if (hit !== undefined) throw scopeError(tool.name, file, { kind, entry, scope, hit });
      }
    }
  }
}

function scopeError(
  name: string,
  file: string,
  found: { kind: "read" | "write"; entry: string | null; scope: string | null; hit: HostInput },
): ToolLoadError {
  const { kind, entry, scope, hit } = found;
  const declared = entry === null
    ? `${kind}: true (everything)`
    : `${kind} ${JSON.stringify(entry)}${scope === entry ? "" : ` (${scope})`}`;
  const relation = scope === hit.path
    ? "is"
    : scope === null || inside(hit.path, scope)
    ? "contains"
    : "lies inside";
  const reason = `tool ${name} declares ${declared}, which ${relation} the ${hit.what} ${hit.path}`;
  const { fix, why } = hit.what === CACHE_INPUT
    ? {
      fix:
        `narrow the ${kind} scope, or set MAGI_TOOLS_CACHE_DIR to a directory outside it (or to off)`,
      why:
        "a tool must not reach the describe cache, whose entries decide how the host loads modules",
    }
    : hit.what === STATE_INPUT
    ? {
      fix: `narrow the ${kind} scope, or set XDG_STATE_HOME to a directory outside it`,
      why: "a tool must not reach the host's secrets (the mcp --http bearer tokens)",
    }
    : {
      fix:
        "narrow the write scope to a directory that holds none of the host's inputs (for example notes)",
      why: "a tool process must not change what the host loads",
    };
  return new ToolLoadError(file, `${reason}: ${why}`, {
    message: `Tool scope overlaps a host input: ${file}: ${reason}: ${why}; ${fix}`,
  });
}
