/**
 * Cached tool descriptions (Deno only): startup with unchanged tool modules
 * needs no describe child.
 *
 * A module's entry is keyed by the SHA-256 of: the cache format, the Deno,
 * V8 and TypeScript versions, the module's URL, the content of every local
 * file its static imports reach (relative and `file:` specifiers, and bare
 * specifiers the import map maps to local files) together with the describe
 * child's own modules, and the text of the `deno.json`/`deno.jsonc` and
 * lockfile the describe child resolves with (found from its working
 * directory, as Deno does). A module is not cached at all when its key
 * cannot be made complete: a computed dynamic `import()`, an `http:`/`https:`
 * import (other than a versioned `https://jsr.io/` URL), a bare specifier the
 * import map does not map, an `npm:`/`jsr:` import without a lockfile, or a
 * file it cannot read.
 *
 * Where: entries live in `<dir>/<key>.json`, `dir` being
 * `MAGI_TOOLS_CACHE_DIR` when the host may read that variable, else
 * `describe/` under the user's cache directory (`userDir("cache")`:
 * `$XDG_CACHE_HOME/magi-tools`, `~/.cache/magi-tools`, `~/Library/Caches/
 * magi-tools`, `%LOCALAPPDATA%\magi-tools\cache`). `MAGI_TOOLS_CACHE_DIR=off`
 * turns the cache off, and so does a user cache directory that cannot be
 * known (the host may not read `HOME`/`XDG_CACHE_HOME`, e.g. under
 * `--allow-env=MAGI_CODE_AGENT,PATH`): nothing is ever created in the working
 * directory. The directory is created `0700` and refused when group- or
 * world-writable, files are `0600`; each entry carries an HMAC-SHA-256 over
 * its key and result with a random secret in `<dir>/key`. An entry is used
 * only when its mode is not group- or world-writable, its key is the one
 * computed now (a foreign entry is refused), its HMAC verifies (a tampered
 * entry is refused) and its result has the describe child's exact shape;
 * anything else is described again and overwritten. Only successful
 * descriptions are stored. The cache uses only permissions the host already
 * holds (`Deno.permissions.querySync`): it never makes Deno prompt, and
 * without them it is skipped.
 *
 * Why an entry cannot weaken a module's declaration: the secret (and the
 * whole directory) is outside every tool's reach, because the loader refuses
 * a process tool whose declared `read` or `write` scope overlaps the cache
 * directory (`sandbox/host_inputs.ts`), so a tool cannot forge an entry. On
 * top of that, an entry saying `isolation: "inline"` (the one claim that
 * makes the host import a module) is trusted only when the module's own
 * source text contains `isolation: "inline"`; otherwise the module is
 * described again in the zero-permission child. The check reads nothing
 * more (the source was read for the key) and costs nothing for modules
 * that are process tools, so a forged entry (for instance signed with a
 * secret stolen in a run that had the cache off or elsewhere) can at most
 * turn a module inline whose author wrote that declaration. Permissions,
 * memory cap and timeout of a process tool rest on the secret alone; its
 * process still checks its module's sandbox fingerprint against the entry
 * before the first call, and an inline tool is compared with it once
 * imported. Cache failures never fail a load: the module is described by
 * the child.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { currentDir, getEnv, userDir } from "../runtime/mod.ts";
import type { DescribeResult } from "../sandbox/describe.ts";
import {
  describeModules,
  type DescribeOptions,
  type ModuleRef,
  parseDescribeResult,
} from "../sandbox/describe_client.ts";

/** Environment variable naming the cache directory, or `off`. */
export const CACHE_DIR_ENV = "MAGI_TOOLS_CACHE_DIR";

/** The default cache directory's name under the user's cache directory (`userDir("cache")`). */
export const DEFAULT_CACHE_SUBDIR = "describe";

/** Bumped whenever an entry's meaning changes: older entries are then never matched. */
const FORMAT = 2;
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
const encoder = new TextEncoder();

/** Options of {@link describeModulesCached}. */
export interface DescribeCacheOptions {
  /** Cache directory; `null`: no cache. Default: {@link defaultDir}. */
  readonly dir?: string | null;
  /** Describes the modules the cache misses (tests count children with it); default {@link describeModules}. */
  readonly describe?: typeof describeModules;
}

/** The `deno.json` the describe child resolves with, and its lockfile. */
interface ResolveConfig {
  readonly path: string;
  readonly text: string;
  readonly imports: Readonly<Record<string, string>>;
  readonly lockText: string | null;
}

/**
 * Describe `modules` like {@link describeModules}, answering from the cache
 * where a valid entry exists and starting the describe child only for the
 * rest (none when every module hits).
 */
export async function describeModulesCached(
  modules: readonly ModuleRef[],
  options: DescribeOptions = {},
  cache: DescribeCacheOptions = {},
): Promise<DescribeResult[]> {
  const describe = cache.describe ?? describeModules;
  const store = await openStore(cacheDirOf(cache));
  if (store === null || modules.length === 0) return await describe(modules, options);
  const infos = await moduleKeyInfos(modules, options.cwd);
  const keys = infos.map((info) => info?.key ?? null);
  const results: (DescribeResult | null)[] = await Promise.all(infos.map(async (info) => {
    const result = info === null ? null : await store.read(info.key);
    // A cached `inline` makes the host import the module: only where its source says so.
    if (result?.ok && result.tool.isolation === "inline" && info?.declaresInline !== true) {
      return null;
    }
    return result;
  }));
  const missing = results.flatMap((result, index) => result === null ? [index] : []);
  if (missing.length > 0) {
    const fresh = await describe(missing.map((index) => modules[index]!), options);
    await Promise.all(missing.map(async (index, at) => {
      const result = fresh[at]!;
      results[index] = result;
      const key = keys[index];
      if (result.ok && key !== null && key !== undefined) await store.write(key, result);
    }));
  }
  return results as DescribeResult[];
}

/**
 * The cache directory: {@link CACHE_DIR_ENV} when the host may read it (`off`: none;
 * a relative path resolves against the working directory), else
 * {@link DEFAULT_CACHE_SUBDIR} under `userDir("cache")`; null when off or when the user's
 * cache directory cannot be known. Never a default in the working directory.
 */
export function defaultDir(): string | null {
  let configured: string | undefined;
  try {
    if (granted({ name: "env", variable: CACHE_DIR_ENV })) configured = getEnv(CACHE_DIR_ENV);
  } catch {
    configured = undefined;
  }
  if (configured === "off") return null;
  try {
    if (configured !== undefined && configured !== "") return resolve(currentDir(), configured);
    const base = userDir("cache");
    return base === null ? null : join(base, DEFAULT_CACHE_SUBDIR);
  } catch {
    return null;
  }
}

/** The directory `cache` uses (absolute), or null for none: `cache.dir`, else {@link defaultDir}. */
export function cacheDirOf(cache: DescribeCacheOptions = {}): string | null {
  if (cache.dir === undefined) return defaultDir();
  if (cache.dir === null) return null;
  try {
    return resolve(currentDir(), cache.dir);
  } catch {
    return cache.dir;
  }
}

/**
 * Whether the host already holds a permission: the cache never makes Deno
 * prompt (`Deno.permissions.querySync` does not), it is skipped instead.
 */
function granted(descriptor: Deno.PermissionDescriptor): boolean {
  try {
    return Deno.permissions.querySync(descriptor).state === "granted";
  } catch {
    return false;
  }
}

/** Read a file the host may already read; throws otherwise (NotFound when absent). */
function readGranted(path: string): Promise<string> {
  if (!granted({ name: "read", path })) {
    return Promise.reject(new Error(`${path}: no read permission`));
  }
  return Deno.readTextFile(path);
}

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
interface KeyInfo {
  readonly key: string;
  readonly declaresInline: boolean;
}

async function moduleKeyInfos(
  modules: readonly ModuleRef[],
  cwd: string | undefined,
): Promise<(KeyInfo | null)[]> {
  let config: ResolveConfig | null;
  try {
    if (cwd === undefined && !granted({ name: "read" })) return modules.map(() => null);
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
      deno: Deno.version,
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
    text = await readGranted(fileURLToPath(url));
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
        text = await readGranted(path);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) continue;
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
      lockText = await readGranted(lockPath);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return { path, text, imports, lockText };
}

interface Store {
  read(key: string): Promise<DescribeResult | null>;
  write(key: string, result: DescribeResult): Promise<void>;
}

/** The entry store under `dir`, or null when the cache is off or its secret is unusable. */
async function openStore(dir: string | null): Promise<Store | null> {
  if (dir === null) return null;
  if (!granted({ name: "read", path: dir }) || !granted({ name: "write", path: dir })) return null;
  const entries = dir;
  let secret: CryptoKey;
  try {
    await Deno.mkdir(entries, { recursive: true, mode: 0o700 });
    const info = await Deno.stat(entries);
    if (!info.isDirectory || info.mode === null || (info.mode & 0o022) !== 0) return null;
    secret = await crypto.subtle.importKey(
      "raw",
      encoder.encode(await readSecret(join(dir, "key"))),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
  } catch {
    return null;
  }
  const signed = (key: string, result: DescribeResult) =>
    encoder.encode(`${key}\n${JSON.stringify(result)}`);
  return {
    async read(key) {
      try {
        const path = join(entries, `${key}.json`);
        const info = await Deno.stat(path);
        if (info.mode === null || (info.mode & 0o022) !== 0) return null;
        const entry = JSON.parse(await Deno.readTextFile(path)) as Record<string, unknown>;
        if (entry.v !== FORMAT || entry.key !== key || typeof entry.mac !== "string") return null;
        const result = parseDescribeResult(entry.result);
        if (result === null || !result.ok) return null;
        const mac = hexBytes(entry.mac);
        if (mac === null) return null;
        const valid = await crypto.subtle.verify("HMAC", secret, mac, signed(key, result));
        return valid ? result : null;
      } catch {
        return null;
      }
    },
    async write(key, result) {
      try {
        const mac = new Uint8Array(await crypto.subtle.sign("HMAC", secret, signed(key, result)));
        const hex = [...mac].map((byte) => byte.toString(16).padStart(2, "0")).join("");
        const text = JSON.stringify({ v: FORMAT, key, result, mac: hex });
        const temp = join(entries, `.${key}.${crypto.randomUUID()}.tmp`);
        await Deno.writeTextFile(temp, text, { mode: 0o600 });
        await Deno.rename(temp, join(entries, `${key}.json`));
      } catch {
        // Not cached: the next start describes this module again.
      }
    },
  };
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) return null;
  return new Uint8Array(hex.match(/../g)!.map((pair) => parseInt(pair, 16)));
}

/**
 * The cache's HMAC secret: created once (random, `0600`, written whole
 * before it appears under its name); refused when group- or world-accessible.
 */
async function readSecret(path: string): Promise<string> {
  try {
    const info = await Deno.stat(path);
    if (info.mode === null || (info.mode & 0o077) !== 0) {
      throw new Error(`${path}: group or world access`);
    }
    return await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const secret = [...crypto.getRandomValues(new Uint8Array(32))]
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temp, secret, { mode: 0o600 });
  try {
    await Deno.link(temp, path);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  } finally {
    await Deno.remove(temp);
  }
  return await readSecret(path);
}
