/**
 * The project config, `magi-tools.jsonc`: which tool sources the host adds
 * to its `--tools` modules. Read with the JSONC parser (comments and
 * trailing commas allowed), checked strictly: an unknown key or a bad value
 * is a {@link ConfigError} naming the file and key path (exit 2).
 *
 * Where it comes from: `--config FILE`, else `magi-tools.jsonc` in the
 * working directory when it exists and the host may read it (`--no-config`
 * skips it). That file, found rather than named, is the project's own: when
 * it starts a command or reads an environment variable it is refused with an
 * {@link UnapprovedConfigError} until the user approved it (`trust.ts`),
 * decided before any key is checked or variable read. Each
 * `--mcp-config FILE` adds the `mcpServers` of a Claude Desktop / Claude
 * Code / Cursor style file (its other top-level keys are not ours and are
 * ignored); a server name defined twice is an error naming both files.
 *
 * The top-level keys are the {@link CONFIG_SECTIONS} table: section name →
 * parser. A new source adds one entry there (and one field to
 * {@link HostConfig}).
 *
 * @example
 * ```ts
 * import { parseConfigText } from "./mod.ts";
 * const config = parseConfigText('{ "mcpServers": { "fs": { "command": "fs-server" } } }', {
 *   file: "magi-tools.jsonc",
 *   env: () => undefined,
 * });
 * console.assert(config.mcpServers[0]?.name === "fs");
 * ```
 *
 * @module
 */

import { visit } from "jsonc-parser";
import { parseJsonc } from "./_jsonc.ts";
import { type At, child, fail, isObject, knownKeys } from "./_check.ts";
import { getEnv, readTextFile } from "../runtime/mod.ts";
import { ConfigError } from "./errors.ts";
import {
  type DestinationPins,
  type TrustCheck,
  trustFromUser,
  UnapprovedConfigError,
} from "./trust.ts";
import { configNeeds, needsApproval } from "./needs.ts";
import { type EnvGetter, type McpServerConfig, parseMcpServers } from "./mcp_servers.ts";
import { type OpenApiConfig, parseOpenApi } from "./openapi.ts";
import { parseApprovals } from "./approval_rules.ts";
import type { ApprovalRule } from "../call/approval_rules.ts";

export { ConfigError } from "./errors.ts";
export {
  checkDestination,
  describeDestinations,
  describeNeeds,
  type DestinationPins,
  TRUST_ENV,
  type TrustCheck,
  trustFromUser,
  type TrustRequest,
  type TrustVerdict,
  UnapprovedConfigError,
} from "./trust.ts";
export {
  type ConfigNeeds,
  configNeeds,
  needsApproval,
  type SecretDestination,
  secretDestinations,
} from "./needs.ts";
export {
  configKey,
  hashConfigText,
  readTrustStore,
  type TrustedConfig,
  type TrustRecords,
  trustStorePath,
  writeTrustStore,
} from "./trust_store.ts";
export { parseJsonc } from "./_jsonc.ts";
export type { EnvGetter, McpServerConfig, McpTransportConfig } from "./mcp_servers.ts";
export { type OpenApiConfig, parseOpenApi } from "./openapi.ts";

/** The checked config: every section, empty when absent. */
export interface HostConfig {
  /** The files read, in order (empty without any config). */
  readonly files: readonly string[];
  /** `mcpServers` entries, in file order (disabled ones included, `enabled: false`). */
  readonly mcpServers: readonly McpServerConfig[];
  /** `openapi` entries (HTTP APIs from their OpenAPI documents), in file order. */
  readonly openapi: readonly OpenApiConfig[];
  /**
   * The project config was approved by the trust store: where its secrets were
   * recorded to go, checked when its sources start (`src/sources/start.ts`). Absent for
   * a config approved otherwise or needing no approval.
   */
  readonly pins?: DestinationPins;
  /**
   * `"records": { "arguments": true }`: put each call's arguments (configured secrets
   * redacted) on its `tool.call` record, as `--record-args` does. Absent: false.
   */
  readonly recordArguments?: boolean;
  /** `approvals`: approval rules for write tools, in order (`approval_rules.ts`). Absent: none. */
  readonly approvals?: readonly ApprovalRule[];
}

/** What a section parser gets besides its value. */
export interface SectionContext {
  /** Reads one environment variable (for `${VAR}` expansion). */
  readonly env: EnvGetter;
}

/** A top-level section's parser: its checked value merged into {@link HostConfig}. */
export type SectionParser = (
  value: unknown,
  at: At,
  context: SectionContext,
) => Partial<Omit<HostConfig, "files">>;

/**
 * The top-level keys of `magi-tools.jsonc` and their parsers. Any other key
 * is an error. `$schema` is accepted (editors use it) and ignored.
 */
export const CONFIG_SECTIONS: Readonly<Record<string, SectionParser>> = Object.freeze({
  $schema: () => ({}),
  mcpServers: (value, at, context) => ({ mcpServers: parseMcpServers(value, at, context.env) }),
  openapi: (value, at) => ({ openapi: parseOpenApi(value, at) }),
  records: (value, at) => ({ recordArguments: parseRecords(value, at) }),
  approvals: (value, at) => ({ approvals: parseApprovals(value, at) }),
});

/** The `records` section: `{ "arguments": boolean }`. */
function parseRecords(value: unknown, at: At): boolean {
  if (!isObject(value)) throw fail(at, "must be an object");
  knownKeys(value, ["arguments"], at);
  const record = value["arguments"];
  if (record !== undefined && typeof record !== "boolean") {
    throw fail(child(at, "arguments"), "must be true or false");
  }
  return record === true;
}

/** Name of the config file looked for in the working directory. */
export const CONFIG_FILE_NAME = "magi-tools.jsonc";

/** Largest config file read, bytes. */
export const CONFIG_FILE_BYTES = 1_048_576;

/** An empty config (no sources). */
export const EMPTY_CONFIG: HostConfig = Object.freeze({ files: [], mcpServers: [], openapi: [] });

/** Options of {@link parseConfigText}. */
export interface ParseConfigOptions {
  /** The file, for messages. */
  readonly file: string;
  /** Environment lookup for `${VAR}`; default none (every variable unset). */
  readonly env?: EnvGetter;
  /**
   * `mcp`: a Claude-style file of which only `mcpServers` is read (other
   * top-level keys ignored). Default `project`: every key must be known.
   */
  readonly kind?: "project" | "mcp";
}

/**
 * Parse and check one config text.
 *
 * @throws {ConfigError} on invalid JSONC, an unknown key or a bad value.
 */
export function parseConfigText(text: string, options: ParseConfigOptions): HostConfig {
  const value = parseJsonc(text, options.file);
  const root: At = { file: options.file, path: "" };
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== null) throw fail(duplicate.at(options.file), "key defined twice in one object");
  if (!isObject(value)) throw fail(root, "must be an object");
  const context: SectionContext = { env: options.env ?? (() => undefined) };
  if (options.kind === "mcp") {
    if (value["mcpServers"] === undefined) throw fail(root, 'has no "mcpServers" object');
    return {
      files: [options.file],
      mcpServers: parseMcpServers(value["mcpServers"], child(root, "mcpServers"), context.env),
      openapi: [],
    };
  }
  knownKeys(value, Object.keys(CONFIG_SECTIONS), root);
  let config: HostConfig = { ...EMPTY_CONFIG, files: [options.file] };
  for (const [key, section] of Object.entries(value)) {
    config = { ...config, ...CONFIG_SECTIONS[key]!(section, child(root, key), context) };
  }
  return config;
}

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** `--config FILE`: must exist. */
  readonly config?: string | undefined;
  /** `--no-config`: skip `magi-tools.jsonc` in `cwd`. */
  readonly noConfig?: boolean;
  /** `--mcp-config FILE`s, in order. */
  readonly mcpConfigs?: readonly string[];
  /** Where `magi-tools.jsonc` is looked for, and relative files resolved. */
  readonly cwd: string;
  /** Environment lookup; default the host's. */
  readonly env?: EnvGetter;
  /** Reads a file, null when it does not exist (tests); default the runtime's. */
  readonly readFile?: (path: string) => Promise<string | null>;
  /**
   * Decides on a `magi-tools.jsonc` found in `cwd` that starts a command or
   * reads a variable (`trust.ts`); default the user's approval
   * (`MAGI_TOOLS_TRUST_CONFIG=1` or the trust store). Files named by
   * `--config` or `--mcp-config` are the user's choice and not asked about.
   */
  readonly trustConfig?: TrustCheck;
}

/**
 * Read the project config and any `--mcp-config` files, merged.
 *
 * @throws {ConfigError} naming the file (and key path) at fault.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<HostConfig> {
  const read = options.readFile ?? readConfigFile;
  const env = options.env ?? getEnv;
  const loaded: HostConfig[] = [];
  if (options.config !== undefined && options.noConfig === true) {
    throw new ConfigError("Options --config and --no-config cannot be combined");
  }
  if (options.config !== undefined) {
    const text = await read(resolvePath(options.cwd, options.config));
    if (text === null) throw new ConfigError(`Config file not found: ${options.config}`);
    loaded.push(parseConfigText(text, { file: options.config, env }));
  } else if (options.noConfig !== true) {
    // The default file is read when the host may read it: a host run with least-privilege
    // flags (`tools --deno-flags`) that do not grant it has no project config.
    const path = resolvePath(options.cwd, CONFIG_FILE_NAME);
    const text = await read(path).catch((error) => {
      if (error instanceof ConfigError && error.permission) return null;
      throw error;
    });
    if (text !== null) {
      // Approved (or needing no approval) before its keys are checked or a ${VAR} expanded.
      const pins = await requireApproval(path, text, options.trustConfig ?? trustFromUser);
      const config = parseConfigText(text, { file: CONFIG_FILE_NAME, env });
      loaded.push(pins === null ? config : { ...config, pins });
    }
  }
  for (const file of options.mcpConfigs ?? []) {
    const text = await read(resolvePath(options.cwd, file));
    if (text === null) throw new ConfigError(`MCP config file not found: ${file}`);
    loaded.push(parseConfigText(text, { file, env, kind: "mcp" }));
  }
  return mergeConfigs(loaded);
}

/**
 * Throw {@link UnapprovedConfigError} when the project config `text` read
 * from `path` starts a command or reads a variable and `approve` refuses it.
 * Invalid JSONC is left to {@link parseConfigText}'s error (it reads no variable).
 * Resolves with the destinations the trust store pinned, or null (approved
 * otherwise, or no approval needed).
 */
async function requireApproval(
  path: string,
  text: string,
  approve: TrustCheck,
): Promise<DestinationPins | null> {
  let value: unknown;
  try {
    value = parseJsonc(text, CONFIG_FILE_NAME);
  } catch {
    return null;
  }
  const needs = configNeeds(value);
  if (!needsApproval(needs)) return null;
  const verdict = await approve({ path, text });
  if (!verdict.approved) throw new UnapprovedConfigError(path, needs, verdict.reason);
  if (verdict.by !== "store") return null;
  return { file: path, needs, destinations: verdict.destinations ?? {} };
}

/** Merge configs in order; a server name defined twice is an error naming both files. */
export function mergeConfigs(configs: readonly HostConfig[]): HostConfig {
  const owner = new Map<string, string>();
  const servers: McpServerConfig[] = [];
  for (const config of configs) {
    const file = config.files[0] ?? "(config)";
    for (const server of config.mcpServers) {
      const earlier = owner.get(server.name);
      if (earlier !== undefined) {
        throw new ConfigError(
          `MCP server ${server.name} is defined twice: in ${earlier} and ${file}`,
        );
      }
      owner.set(server.name, file);
      servers.push(server);
    }
  }
  // Only the project config is pinned by an approval (an --mcp-config file never is).
  const pins = configs.find((config) => config.pins !== undefined)?.pins;
  return Object.freeze({
    ...(pins === undefined ? {} : { pins }),
    files: configs.flatMap((config) => config.files),
    mcpServers: servers,
    // Only the project config has an `openapi` section (an --mcp-config file never does).
    openapi: configs.flatMap((config) => config.openapi),
    // Only the project config has an `approvals` section.
    ...approvalsOf(configs),
    // Only the project config has a `records` section.
    ...(configs.some((config) => config.recordArguments === true) ? { recordArguments: true } : {}),
  });
}

function approvalsOf(configs: readonly HostConfig[]): { approvals?: readonly ApprovalRule[] } {
  const rules = configs.flatMap((config) => config.approvals ?? []);
  return rules.length === 0 ? {} : { approvals: rules };
}

function resolvePath(cwd: string, file: string): string {
  return file.startsWith("/") ? file : `${cwd.replace(/\/$/, "")}/${file}`;
}

async function readConfigFile(path: string): Promise<string | null> {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (error) {
    const name = error as { name?: string; code?: string };
    if (name.name === "NotFound" || name.code === "ENOENT") return null;
    const permission = name.name === "NotCapable" || name.name === "PermissionDenied";
    throw new ConfigError(`Cannot read config file: ${path}: ${(error as Error).message}`, {
      permission,
    });
  }
  if (text.length > CONFIG_FILE_BYTES) {
    throw new ConfigError(
      `Config file is too large: ${path}: more than ${CONFIG_FILE_BYTES} bytes`,
    );
  }
  return text;
}

/** The first key that appears twice in one object (JSON would keep only the last), or null. */
function firstDuplicateKey(text: string): { at: (file: string) => At } | null {
  const objects: { keys: Set<string>; path: string[] }[] = [];
  let found: string[] | null = null;
  let pendingKey: string | null = null;
  const pathHere = () => objects.at(-1)?.path ?? [];
  visit(text, {
    onObjectBegin: () => {
      const parent = pathHere();
      objects.push({
        keys: new Set(),
        path: pendingKey === null ? parent : [...parent, pendingKey],
      });
      pendingKey = null;
    },
    onObjectEnd: () => void objects.pop(),
    onArrayBegin: () => {
      pendingKey = null;
    },
    onObjectProperty: (key) => {
      const current = objects.at(-1);
      if (current === undefined) return;
      if (current.keys.has(key) && found === null) found = [...current.path, key];
      current.keys.add(key);
      pendingKey = key;
    },
    onLiteralValue: () => {
      pendingKey = null;
    },
  }, { allowTrailingComma: true, disallowComments: false });
  if (found === null) return null;
  const keys: string[] = found;
  return {
    at: (file) => keys.reduce((at, key) => child(at, key), { file, path: "" } as At),
  };
}
