/**
 * The user's trusted project configs: `trusted-configs.json` in the host's
 * per-user config directory (`userDir("config")`, never a project), mapping
 * a config's path to the SHA-256 of the content the user approved.
 *
 * ```json
 * { "version": 1, "configs": { "/home/ada/src/app/magi-tools.jsonc": {
 *   "sha256": "…", "trustedAt": "…",
 *   "destinations": { "openapi.tickets": "http://127.0.0.1:8080/api" } } } }
 * ```
 *
 * `destinations` (optional) records where each OpenAPI source with `auth`
 * sends its secret (the base URL, resolved from the document's `servers` when
 * the config has no `baseUrl`): the config's hash does not cover a document,
 * so a change there is caught by comparing with this (`trust.ts`).
 *
 * The path key is the config's directory resolved through symlinks plus the
 * file name as found ({@link configKey}): a `magi-tools.jsonc` that is a
 * symlink to a trusted file elsewhere is not trusted, because its relative
 * commands and `cwd`s would resolve in the other directory. The directory is
 * created `0700`, the file written `0600` through a temporary file and a
 * rename, so a reader never sees half a file (two concurrent `trust` runs
 * can lose one record; neither corrupts the file).
 *
 * @example
 * ```ts
 * import { hashConfigText } from "./trust_store.ts";
 * const hash = await hashConfigText("{}");
 * console.assert(hash === "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
 * ```
 *
 * @module
 */

import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { realPath, userDir } from "../runtime/mod.ts";
import { ConfigError } from "./errors.ts";

/** File name of the store inside `userDir("config")`. */
export const TRUST_STORE_FILE = "trusted-configs.json";

/** Largest store read, bytes. */
const STORE_BYTES = 4_194_304;

/** One trusted config. */
export interface TrustedConfig {
  /** SHA-256 of the approved content (lowercase hex of its UTF-8 bytes). */
  readonly sha256: string;
  /** When it was approved (ISO 8601). */
  readonly trustedAt: string;
  /** Where each secret goes: `openapi.<name>` → base URL; absent in records of older versions. */
  readonly destinations?: Readonly<Record<string, string>>;
}

/** The store's content: config key → approval. */
export type TrustRecords = Readonly<Record<string, TrustedConfig>>;

/** The store file, or null when the per-user config directory cannot be known. */
export function trustStorePath(): string | null {
  const dir = userDir("config");
  return dir === null ? null : join(dir, TRUST_STORE_FILE);
}

/** SHA-256 of `text`'s UTF-8 bytes, lowercase hex. */
export async function hashConfigText(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The store key of the config at `path`: its directory's real path joined
 * with the file name (the file itself is not resolved; see the module doc).
 * A directory that does not exist resolves as written, made absolute.
 */
export async function configKey(path: string): Promise<string> {
  const absolute = resolve(path);
  let dir = dirname(absolute);
  try {
    dir = await realPath(dir);
  } catch {
    // Gone (e.g. `trust --revoke` of a deleted project): the path as written.
  }
  return join(dir, basename(absolute));
}

/**
 * Read the store at `file`; a missing file is an empty store.
 *
 * @throws {ConfigError} naming the store when it cannot be read or is not a store.
 */
export async function readTrustStore(file: string): Promise<TrustRecords> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return {};
    throw new ConfigError(`Cannot read the trust store: ${file}: ${(error as Error).message}`);
  }
  if (bytes.length > STORE_BYTES) {
    throw new ConfigError(`Trust store is too large: ${file}: more than ${STORE_BYTES} bytes`);
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new ConfigError(`Trust store is not JSON: ${file}: ${(error as Error).message}`);
  }
  const configs = isRecord(value) && value["version"] === 1 ? value["configs"] : undefined;
  if (!isRecord(configs)) {
    throw new ConfigError(`Trust store is not a version 1 store: ${file}`);
  }
  const records: Record<string, TrustedConfig> = {};
  for (const [key, entry] of Object.entries(configs)) {
    const sha256 = isRecord(entry) ? entry["sha256"] : undefined;
    if (typeof sha256 !== "string" || !/^[0-9a-f]{64}$/.test(sha256)) {
      throw new ConfigError(`Trust store entry has no valid sha256: ${file}: ${key}`);
    }
    const trustedAt = isRecord(entry) && typeof entry["trustedAt"] === "string"
      ? entry["trustedAt"]
      : "";
    const destinations = isRecord(entry) ? entry["destinations"] : undefined;
    if (
      destinations !== undefined &&
      (!isRecord(destinations) || !Object.values(destinations).every((v) => typeof v === "string"))
    ) {
      throw new ConfigError(`Trust store entry has invalid destinations: ${file}: ${key}`);
    }
    records[key] = {
      sha256,
      trustedAt,
      ...(destinations === undefined
        ? {}
        : { destinations: destinations as Record<string, string> }),
    };
  }
  return records;
}

/** Write `records` as the store at `file` (directory `0700`, file `0600`, atomically). */
export async function writeTrustStore(file: string, records: TrustRecords): Promise<void> {
  const dir = dirname(file);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // A directory made earlier by someone else keeps its mode otherwise.
    await chmod(dir, 0o700).catch(() => {});
    const text = JSON.stringify({ version: 1, configs: records }, null, 2) + "\n";
    const temp = `${file}.${crypto.randomUUID()}.tmp`;
    await writeFile(temp, text, { mode: 0o600, flag: "wx" });
    await rename(temp, file).catch(async (error) => {
      await rm(temp, { force: true }).catch(() => {});
      throw error;
    });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`Cannot write the trust store: ${file}: ${(error as Error).message}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
