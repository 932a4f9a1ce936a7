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
 * holds (`readGranted`/`writeGranted` of the runtime): it never makes Deno prompt, and
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

import { join, resolve } from "node:path";
import {
  currentDir,
  fileInfo,
  getEnvIfGranted,
  isAlreadyExists,
  isNotFound,
  linkFile,
  makeDirs,
  readGranted,
  readTextFile,
  removeAll,
  renamePath,
  userDir,
  writeGranted,
  writeTextFile,
} from "../runtime/mod.ts";
import type { DescribeResult } from "../sandbox/describe.ts";
import {
  describeModules,
  type DescribeOptions,
  type ModuleRef,
  parseDescribeResult,
} from "../sandbox/describe_client.ts";
import { FORMAT, moduleKeyInfos } from "./describe_key.ts";

export { moduleKeys } from "./describe_key.ts";

/** Environment variable naming the cache directory, or `off`. */
export const CACHE_DIR_ENV = "MAGI_TOOLS_CACHE_DIR";

/** The default cache directory's name under the user's cache directory (`userDir("cache")`). */
export const DEFAULT_CACHE_SUBDIR = "describe";

const encoder = new TextEncoder();

/** Options of {@link describeModulesCached}. */
export interface DescribeCacheOptions {
  /** Cache directory; `null`: no cache. Default: {@link defaultDir}. */
  readonly dir?: string | null;
  /** Describes the modules the cache misses (tests count children with it); default {@link describeModules}. */
  readonly describe?: typeof describeModules;
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
 * cache directory cannot be known. Never a default in the working directory. `env` reads the
 * environment (default: the process's, where the host may read it).
 */
export function defaultDir(
  env: (name: string) => string | undefined = getEnvIfGranted,
): string | null {
  let configured: string | undefined;
  try {
    configured = env(CACHE_DIR_ENV);
  } catch {
    configured = undefined;
  }
  if (configured === "off") return null;
  try {
    if (configured !== undefined && configured !== "") return resolve(currentDir(), configured);
    const base = userDir("cache", env);
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

interface Store {
  read(key: string): Promise<DescribeResult | null>;
  write(key: string, result: DescribeResult): Promise<void>;
}

/** The entry store under `dir`, or null when the cache is off or its secret is unusable. */
async function openStore(dir: string | null): Promise<Store | null> {
  if (dir === null) return null;
  if (!readGranted(dir) || !writeGranted(dir)) return null;
  const entries = dir;
  let secret: CryptoKey;
  try {
    await makeDirs(entries, 0o700);
    const info = await fileInfo(entries);
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
        const info = await fileInfo(path);
        if (info.mode === null || (info.mode & 0o022) !== 0) return null;
        const entry = JSON.parse(await readTextFile(path)) as Record<string, unknown>;
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
        await writeTextFile(temp, text, 0o600);
        await renamePath(temp, join(entries, `${key}.json`));
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
    const info = await fileInfo(path);
    if (info.mode === null || (info.mode & 0o077) !== 0) {
      throw new Error(`${path}: group or world access`);
    }
    return await readTextFile(path);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const secret = [...crypto.getRandomValues(new Uint8Array(32))]
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  await writeTextFile(temp, secret, 0o600);
  try {
    await linkFile(temp, path);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  } finally {
    await removeAll(temp);
  }
  return await readSecret(path);
}
