/**
 * The Node.js column's MCP SDK: `bench/node/` holds a `package.json` and a
 * `package-lock.json` that pin `@modelcontextprotocol/sdk` (and its zod) to
 * the version the Deno column resolves. {@link ensureNodeSdk} installs them
 * with `npm ci` on first use (and again whenever the lockfile changed), then
 * checks that the installed SDK is the Deno column's version.
 *
 * @module
 */

/** `bench/node/`: the Node.js harness and its pinned packages. */
export const NODE_DIR: string = new URL("./node/", import.meta.url).pathname;

/** The package both SDK columns run. */
export const SDK_PACKAGE = "@modelcontextprotocol/sdk";

/** The Node.js column cannot run: npm failed, or the versions differ. */
export class NodeSdkError extends Error {
  override name = "NodeSdkError";
}

interface Lockfile {
  packages?: Record<string, { version?: string } | undefined>;
}

/**
 * `node_modules/<name>` → version of every package a `package-lock.json`
 * (or npm's hidden `node_modules/.package-lock.json`) text lists. Throws a
 * `TypeError` naming `source` when the text is not such a lockfile.
 *
 * @example
 * ```ts
 * import { lockedVersions } from "./node_sdk.ts";
 * const text = '{"packages":{"":{},"node_modules/zod":{"version":"4.6.7"}}}';
 * console.assert(lockedVersions(text, "x").get("node_modules/zod") === "4.6.7");
 * ```
 */
export function lockedVersions(text: string, source: string): Map<string, string> {
  let parsed: Lockfile;
  try {
    parsed = JSON.parse(text) as Lockfile;
  } catch (error) {
    throw new TypeError(`Not JSON: ${source}: ${error instanceof Error ? error.message : error}`);
  }
  if (typeof parsed !== "object" || parsed === null || typeof parsed.packages !== "object") {
    throw new TypeError(`Lockfile has no "packages" object: ${source}`);
  }
  const versions = new Map<string, string>();
  for (const [path, entry] of Object.entries(parsed.packages ?? {})) {
    if (path === "") continue;
    if (typeof entry?.version !== "string") {
      throw new TypeError(`Lockfile entry has no version: ${source}: packages["${path}"]`);
    }
    versions.set(path, entry.version);
  }
  return versions;
}

/**
 * Whether the installed tree (`installed`, from `node_modules/.package-lock.json`)
 * holds exactly the packages and versions the lockfile pins (`pinned`).
 *
 * @example
 * ```ts
 * import { installMatches } from "./node_sdk.ts";
 * const pinned = new Map([["node_modules/zod", "4.6.7"]]);
 * console.assert(installMatches(pinned, new Map(pinned)));
 * console.assert(!installMatches(pinned, new Map([["node_modules/zod", "4.0.0"]])));
 * ```
 */
export function installMatches(
  pinned: ReadonlyMap<string, string>,
  installed: ReadonlyMap<string, string> | null,
): boolean {
  if (installed === null || installed.size !== pinned.size) return false;
  for (const [path, version] of pinned) if (installed.get(path) !== version) return false;
  return true;
}

/**
 * Check what `node --version` printed (`machineInfo().node`): a Node.js
 * version such as `v20.20.2`. Throws a {@link NodeSdkError} otherwise: node
 * is missing (`not installed`), or something else answered, as Deno's own
 * `node` fallback does when a Deno process runs `node` and none is on PATH
 * (it prints Deno's version).
 *
 * @example
 * ```ts
 * import { checkNodeVersion } from "./node_sdk.ts";
 * checkNodeVersion("v20.20.2");
 * ```
 */
export function checkNodeVersion(versionOutput: string): void {
  if (!/^v\d+\.\d+\.\d+$/.test(versionOutput.trim())) {
    throw new NodeSdkError(
      `node (Node.js) is required for the MCP SDK column on Node.js: \`node --version\` gave ${
        JSON.stringify(versionOutput.split("\n")[0])
      }`,
    );
  }
}

/** Options of {@link ensureNodeSdk}. */
export interface EnsureNodeSdkOptions {
  /** The SDK version the Deno column resolves; the Node.js column must run the same. */
  denoSdkVersion: string;
  /** The package directory (default {@link NODE_DIR}). */
  dir?: string;
  /** The npm command (default `npm`). */
  npm?: string;
  /** Progress lines (stderr in the suite). */
  progress?: (line: string) => void;
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** The `npm ci` arguments the suite installs with. */
export function npmCiArgs(dir: string): string[] {
  return ["ci", "--prefix", dir, "--ignore-scripts", "--no-audit", "--no-fund"];
}

/**
 * Install `bench/node/` with `npm ci` unless its `node_modules` already
 * matches the lockfile, then check that the installed SDK is
 * `denoSdkVersion`. Returns the installed SDK version. Throws a
 * {@link NodeSdkError} that names the command or the file at fault.
 */
export async function ensureNodeSdk(options: EnsureNodeSdkOptions): Promise<string> {
  const dir = (options.dir ?? NODE_DIR).replace(/\/?$/, "/");
  const lockPath = `${dir}package-lock.json`;
  const lockText = await readOptional(lockPath);
  if (lockText === null) throw new NodeSdkError(`Missing lockfile: ${lockPath}`);
  const pinned = lockedVersions(lockText, lockPath);
  const hiddenPath = `${dir}node_modules/.package-lock.json`;
  const hidden = async () => {
    const text = await readOptional(hiddenPath);
    return text === null ? null : lockedVersions(text, hiddenPath);
  };
  if (!installMatches(pinned, await hidden())) {
    const npm = options.npm ?? "npm";
    const args = npmCiArgs(dir);
    const shown = `${npm} ${args.join(" ")}`;
    options.progress?.(`installing the Node.js SDK column: ${shown}`);
    let result: Deno.CommandOutput;
    try {
      result = await new Deno.Command(npm, {
        args,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      })
        .output();
    } catch (error) {
      throw new NodeSdkError(
        `Cannot run npm for the Node.js SDK column: ${shown}: ${
          error instanceof Error ? error.message : error
        }`,
      );
    }
    if (!result.success) {
      const stderr = new TextDecoder().decode(result.stderr).trim().split("\n").slice(-10);
      throw new NodeSdkError(
        `npm failed (exit ${result.code}) installing the Node.js SDK column: ${shown}` +
          (stderr.length > 0 && stderr[0] !== "" ? `\n${stderr.join("\n")}` : ""),
      );
    }
    if (!installMatches(pinned, await hidden())) {
      throw new NodeSdkError(`npm ci left ${hiddenPath} different from ${lockPath}`);
    }
  }
  const version = pinned.get(`node_modules/${SDK_PACKAGE}`);
  if (version === undefined) throw new NodeSdkError(`${lockPath} pins no ${SDK_PACKAGE}`);
  if (version !== options.denoSdkVersion) {
    throw new NodeSdkError(
      `The Node.js column's ${SDK_PACKAGE} is ${version} (${lockPath}) but the Deno column's is ${options.denoSdkVersion}: pin the same version in both`,
    );
  }
  return version;
}
