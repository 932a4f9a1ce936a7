/**
 * The describe cache's keys (`describe_cache.ts`): a module's key is the SHA-256 of the cache
 * format, the runtime's versions, the module's URL, the content of every local file its static
 * imports reach together with the describe child's own modules, and the `deno.json` and lockfile
 * the describe child resolves with; null when that cannot be known completely. Files are read
 * only where the host already may (it never makes Deno prompt).
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  currentDir,
  isNotFound,
  readGranted,
  readTextFile,
  runtimeVersions,
} from "../runtime/mod.ts";
import type { ModuleRef } from "../sandbox/describe_client.ts";

/** Bumped whenever an entry's meaning changes: older entries are then never matched. */
export const FORMAT = 2;
/** A module's own source declares inline isolation (the only way a cached `inline` is trusted). */
const DECLARES_INLINE = /\bisolation["']?\s*:\s*(["'`])inline\1/;
const DESCRIBER_URLS = [
  new URL("../sandbox/describe_client.ts", import.meta.url).href,
  new URL("../sandbox/describe.ts", import.meta.url).href,
  new URL("../sandbox/describe_setup.ts", import.meta.url).href,
];
/** This package's own modules: trusted to use computed `import()` (the describe child does). */
const PACKAGE_ROOT = new URL("../../", import.meta.url).href;
const JSR_VERSIONED = /^https:\/\/jsr\.io\/@[^/]+\/[^/]+\/\d+\.\d+\.\d+[^/]*\//;
const STATIC_SPECIFIER = /\b(?:import|export)\b[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1/g;
const BARE_IMPORT = /\bimport\s*(['"])([^'"]+)\1/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*(['"])([^'"]+)\1\s*[,)]/g;
const ANY_DYNAMIC_IMPORT = /\bimport\s*\(/g;

/** The `deno.json` the describe child resolves with, and its lockfile. */
interface ResolveConfig {
  readonly path: string;
  readonly text: string;
  readonly imports: Readonly<Record<string, string>>;
  readonly lockText: string | null;
}

/** Read a file the host may already read; throws otherwise (not-found when absent). */
function readIfGranted(path: string): Promise<string> {
  if (!readGranted(path)) return Promise.reject(new Error(`${path}: no read permission`));
  return readTextFile(path);
}

/** Hex SHA-256 of `text`. */
function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Each module's cache key (hex SHA-256 of its key material), or null when
 * it cannot be cached. Files shared by several modules are read once.
 */
export async function moduleKeys(
  modules: readonly ModuleRef[],
  cwd: string | undefined,
): Promise<(string | null)[]> {
  return (await moduleKeyInfos(modules, cwd)).map((info) => info?.key ?? null);
}

/** A module's cache key and whether its own source declares `isolation: "inline"`. */
export interface KeyInfo {
  readonly key: string;
  readonly declaresInline: boolean;
}

export async function moduleKeyInfos(
  modules: readonly ModuleRef[],
  cwd: string | undefined,
): Promise<(KeyInfo | null)[]> {
  let config: ResolveConfig | null;
  try {
    if (cwd === undefined && !readGranted()) return modules.map(() => null);
    config = await findConfig(cwd ?? currentDir());
  } catch {
    return modules.map(() => null);
  }
  const files = new Map<string, Promise<FileInfo | null>>();
  const describer = await graphOf(DESCRIBER_URLS, config, files);
  return await Promise.all(modules.map(async (module) => {
    const graph = await graphOf([module.url], config, files);
    if (graph === null || describer === null) return null;
    const declaresInline = (await files.get(module.url))?.declaresInline === true;
    const key = sha256(JSON.stringify({
      format: FORMAT,
      deno: runtimeVersions(),
      module: module.url,
      files: graph,
      describer,
      config: config === null ? null : { path: config.path, text: sha256(config.text) },
      lock: config?.lockText == null ? null : sha256(config.lockText),
    }));
    return { key, declaresInline };
  }));
}

interface FileInfo {
  readonly hash: string;
  readonly imports: readonly string[];
  /** Whether it has an `import()` of a computed specifier (its graph is then unknowable). */
  readonly computed: boolean;
  /** Whether its text contains `isolation: "inline"`. */
  readonly declaresInline: boolean;
}

/** `[url, content hash]` of every local file `roots` reach, sorted; null when not cacheable. */
async function graphOf(
  roots: readonly string[],
  config: ResolveConfig | null,
  files: Map<string, Promise<FileInfo | null>>,
): Promise<[string, string][] | null> {
  const seen = new Map<string, string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const url = queue.pop()!;
    if (seen.has(url)) continue;
    if (JSR_VERSIONED.test(url)) {
      seen.set(url, "immutable");
      continue;
    }
    if (!url.startsWith("file:")) return null;
    let info = files.get(url);
    if (info === undefined) {
      info = readInfo(url, config);
      files.set(url, info);
    }
    const read = await info;
    if (read === null || (read.computed && !url.startsWith(PACKAGE_ROOT))) return null;
    seen.set(url, read.hash);
    queue.push(...read.imports);
  }
  return [...seen].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}

/** A local file's hash and the local files it imports; null when not cacheable. */
async function readInfo(url: string, config: ResolveConfig | null): Promise<FileInfo | null> {
  let text: string;
  try {
    text = await readIfGranted(fileURLToPath(url));
  } catch {
    return null;
  }
  const specifiers = [STATIC_SPECIFIER, BARE_IMPORT, DYNAMIC_IMPORT]
    .flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[2]!));
  const computed =
    [...text.matchAll(ANY_DYNAMIC_IMPORT)].length !== [...text.matchAll(DYNAMIC_IMPORT)].length;
  const imports: string[] = [];
  for (const specifier of specifiers) {
    const local = resolveLocal(specifier, url, config);
    if (local === null) return null;
    if (local !== "pinned") imports.push(local);
  }
  return { hash: sha256(text), imports, computed, declaresInline: DECLARES_INLINE.test(text) };
}

/**
 * Where `specifier` (in `referrer`) leads: a file URL to read, `pinned`
 * (nothing to read: `node:` built-ins, `npm:`/`jsr:` with a lockfile,
 * versioned JSR URLs) or null (not cacheable).
 */
function resolveLocal(
  specifier: string,
  referrer: string,
  config: ResolveConfig | null,
): string | "pinned" | null {
  if (/^(?:\.{1,2}\/|\/|file:)/.test(specifier)) {
    const url = new URL(specifier, referrer);
    return url.protocol === "file:" ? url.href : null;
  }
  if (specifier.startsWith("node:")) return "pinned";
  if (/^(?:npm|jsr):/.test(specifier)) return config?.lockText == null ? null : "pinned";
  if (JSR_VERSIONED.test(specifier)) return specifier;
  if (/^[a-z][a-z0-9+.-]*:/i.test(specifier)) return null; // http:, https:, data: and the rest
  if (config === null) return null;
  const base = new URL(".", pathToFileURL(config.path)).href;
  const exact = config.imports[specifier];
  if (exact !== undefined) return resolveLocal(exact, base, config);
  const prefix = Object.keys(config.imports)
    .filter((key) => key.endsWith("/") && specifier.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix === undefined) return null;
  return resolveLocal(config.imports[prefix] + specifier.slice(prefix.length), base, config);
}

/** The `deno.json`/`deno.jsonc` Deno would find from `cwd` upwards, with its lockfile; null for none. */
async function findConfig(cwd: string): Promise<ResolveConfig | null> {
  for (let dir = cwd;;) {
    for (const name of ["deno.json", "deno.jsonc"]) {
      const path = join(dir, name);
      let text: string;
      try {
        text = await readIfGranted(path);
      } catch (error) {
        if (isNotFound(error)) continue;
        throw error;
      }
      return await configOf(path, text);
    }
    const parent = join(dir, "..");
    if (parent === dir) return null;
    dir = parent;
  }
}

async function configOf(path: string, text: string): Promise<ResolveConfig> {
  // deno.jsonc may hold comments: those parse with jsonc-parser, but a config that
  // names an import map file or is not plain JSON makes every module uncacheable.
  const { parse } = await import("jsonc-parser");
  const json = parse(text) as Record<string, unknown> | undefined;
  if (json === undefined || typeof json !== "object" || json === null || "importMap" in json) {
    throw new Error(`${path}: not a plain configuration`);
  }
  const imports = (json.imports ?? {}) as Record<string, string>;
  const lock = json.lock;
  let lockPath: string | null = join(path, "..", "deno.lock");
  if (lock === false) lockPath = null;
  else if (typeof lock === "string") lockPath = join(path, "..", lock);
  else if (typeof lock === "object" && lock !== null && "path" in lock) {
    lockPath = join(path, "..", String((lock as { path: unknown }).path));
  }
  let lockText: string | null = null;
  if (lockPath !== null) {
    try {
      lockText = await readIfGranted(lockPath);
    } catch (error) {
      if (!(isNotFound(error))) throw error;
    }
  }
  return { path, text, imports, lockText };
}
