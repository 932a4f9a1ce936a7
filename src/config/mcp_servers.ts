/**
 * The `mcpServers` section: the shape people already keep for Claude
 * Desktop, Claude Code and Cursor, so an existing config can be pasted.
 *
 * ```jsonc
 * {
 *   "mcpServers": {
 *     "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] },
 *     "api": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer ${TOKEN}" } }
 *   }
 * }
 * ```
 *
 * Per server, besides the transport keys (`command`/`args`/`env`/`cwd`, or
 * `url`/`headers`; `type` as Claude Code writes it): `include`/`exclude`
 * (tool names or `*` globs), `effects` (tool → `read`/`write`),
 * `descriptions` (tool → replacement description), `timeoutMs`, `prefix`,
 * `enabled`, `optional`. `${VAR}` and `${VAR:-default}` in `command`, `args`,
 * `env`, `cwd`, `url` and `headers` are replaced from the host's environment.
 *
 * @module
 */

import {
  type At,
  boolean,
  child,
  fail,
  integer,
  knownKeys,
  object,
  string,
  stringMap,
  strings,
} from "./_check.ts";
import { CLIENT_TOOLS_LIMITS, MIN_RESULT_BYTES } from "../protocol/limits.ts";
import {
  clientCredentialsOf,
  type McpClientCredentials,
  type McpOAuth,
  oauthOf,
} from "./mcp_server_auth.ts";

export type { McpClientCredentials, McpOAuth } from "./mcp_server_auth.ts";

/** How the host reaches a server. */
export type McpTransportConfig =
  | {
    /** A local process speaking MCP on stdin/stdout. */
    readonly kind: "stdio";
    readonly command: string;
    readonly args: readonly string[];
    /** Added to the host's environment. */
    readonly env: Readonly<Record<string, string>>;
    /** Working directory; default the host's. */
    readonly cwd?: string;
  }
  | {
    /** Streamable HTTP. */
    readonly kind: "http";
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    /** OAuth 2 client credentials: a bearer token asked for at `tokenUrl`, if any. */
    readonly clientCredentials?: McpClientCredentials;
    /** Interactive sign-in (`magi-tools login NAME`): the stored tokens are sent, if set. */
    readonly oauth?: McpOAuth;
  };

/** One `mcpServers` entry, checked. */
export interface McpServerConfig {
  /** The entry's key, e.g. `fs`. */
  readonly name: string;
  /** How to reach it. */
  readonly transport: McpTransportConfig;
  /** Only tools matching one of these (names or `*` globs); absent → all. */
  readonly include?: readonly string[];
  /** Tools matching one of these are left out. */
  readonly exclude: readonly string[];
  /** Per-tool effect overrides (server tool name → effect). */
  readonly effects: Readonly<Record<string, "read" | "write">>;
  /** Per-tool description overrides (server tool name → text). */
  readonly descriptions: Readonly<Record<string, string>>;
  /** Each tool's own limit per call, ms (1,000–600,000). */
  readonly timeoutMs?: number;
  /** Each tool's result bound, UTF-8 bytes (1,024–1,048,576; `defineTool`'s `maxResultBytes`). */
  readonly maxResultBytes?: number;
  /** What a result over the bound becomes (`defineTool`'s `overflow`). */
  readonly overflow?: "error" | "truncate" | "spill";
  /** Prefix of the host tool names; default `<name>_`. */
  readonly prefix: string;
  /** `false` → the server is not started. Default true. */
  readonly enabled: boolean;
  /** `true` → a server that fails to start is a `host.warning`, not exit 2. */
  readonly optional: boolean;
}

const SERVER_KEYS = [
  "type",
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "clientCredentials",
  "oauth",
  "include",
  "exclude",
  "effects",
  "descriptions",
  "timeoutMs",
  "maxResultBytes",
  "overflow",
  "prefix",
  "enabled",
  "optional",
] as const;

/** A server name: what the tool names start with. */
const SERVER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Reads one environment variable (undefined when unset). */
export type EnvGetter = (name: string) => string | undefined;

/**
 * Parse the `mcpServers` object at `at`.
 *
 * @throws {ConfigError} naming the key path of the first bad key or value.
 */
export function parseMcpServers(value: unknown, at: At, env: EnvGetter): McpServerConfig[] {
  const servers = object(value, at);
  return Object.entries(servers).map(([name, entry]) =>
    parseServer(name, entry, child(at, name), env)
  );
}

function parseServer(name: string, value: unknown, at: At, env: EnvGetter): McpServerConfig {
  if (!SERVER_NAME.test(name)) {
    throw fail(at, "server name must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$");
  }
  const entry = object(value, at);
  knownKeys(entry, SERVER_KEYS, at);
  const type = entry["type"] === undefined ? undefined : string(entry["type"], child(at, "type"));
  const hasCommand = entry["command"] !== undefined;
  const hasUrl = entry["url"] !== undefined;
  if (hasCommand === hasUrl) {
    throw fail(at, 'needs exactly one of "command" (stdio) or "url" (HTTP)');
  }
  const transport = hasCommand
    ? stdioTransport(entry, at, type, env)
    : httpTransport(entry, at, type, env);
  return Object.freeze({
    name,
    transport: Object.freeze(transport),
    ...toolOptions(name, entry, at),
  });
}

/** The transport of a `command` server, `${VAR}`s expanded; `type`, if given, is `stdio`. */
function stdioTransport(
  entry: Record<string, unknown>,
  at: At,
  type: string | undefined,
  env: EnvGetter,
): McpTransportConfig {
  const expand = (text: string, where: At) => expandVars(text, where, env);
  if (type !== undefined && type !== "stdio") {
    throw fail(child(at, "type"), `must be "stdio" with "command": ${type}`);
  }
  for (const key of ["headers", "clientCredentials", "oauth"]) {
    if (entry[key] !== undefined) throw fail(child(at, key), 'is only for "url" servers');
  }
  const args = entry["args"] === undefined ? [] : strings(entry["args"], child(at, "args"), true);
  const envMap = entry["env"] === undefined ? {} : stringMap(entry["env"], child(at, "env"));
  const cwd = entry["cwd"] === undefined ? undefined : string(entry["cwd"], child(at, "cwd"));
  return {
    kind: "stdio",
    command: expand(string(entry["command"], child(at, "command")), child(at, "command")),
    args: args.map((arg, index) => expand(arg, child(child(at, "args"), index))),
    env: Object.fromEntries(
      Object.entries(envMap).map((
        [key, text],
      ) => [key, expand(text, child(child(at, "env"), key))]),
    ),
    ...(cwd === undefined ? {} : { cwd: expand(cwd, child(at, "cwd")) }),
  };
}

/**
 * The transport of a `url` server (Streamable HTTP; SSE is refused), `${VAR}`s expanded in the
 * URL and headers, with its `clientCredentials` or `oauth` (not both).
 */
function httpTransport(
  entry: Record<string, unknown>,
  at: At,
  type: string | undefined,
  env: EnvGetter,
): McpTransportConfig {
  const expand = (text: string, where: At) => expandVars(text, where, env);
  if (type !== undefined && type !== "http" && type !== "streamable-http") {
    const why = type === "sse"
      ? "the deprecated SSE transport is not supported: use the server's Streamable HTTP endpoint"
      : `must be "http" or "streamable-http" with "url": ${type}`;
    throw fail(child(at, "type"), why);
  }
  for (const key of ["args", "env", "cwd"]) {
    if (entry[key] !== undefined) throw fail(child(at, key), 'is only for "command" servers');
  }
  const urlAt = child(at, "url");
  const url = expand(string(entry["url"], urlAt), urlAt);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fail(urlAt, `is not a URL: ${url}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw fail(urlAt, `must be an http: or https: URL: ${url}`);
  }
  const headers = entry["headers"] === undefined
    ? {}
    : stringMap(entry["headers"], child(at, "headers"));
  const cc = entry["clientCredentials"] === undefined
    ? undefined
    : clientCredentialsOf(entry["clientCredentials"], child(at, "clientCredentials"), url);
  let oauth: McpOAuth | undefined;
  if (entry["oauth"] !== undefined) {
    const oauthAt = child(at, "oauth");
    if (cc !== undefined) throw fail(oauthAt, "cannot be used with clientCredentials");
    oauth = oauthOf(entry["oauth"], oauthAt);
  }
  return {
    kind: "http",
    url,
    headers: Object.fromEntries(
      Object.entries(headers).map((
        [key, text],
      ) => [key, expand(text, child(child(at, "headers"), key))]),
    ),
    ...(cc === undefined ? {} : { clientCredentials: cc }),
    ...(oauth === undefined ? {} : { oauth }),
  };
}

/** A server entry's keys about its tools and itself, checked in order, with their defaults. */
function toolOptions(
  name: string,
  entry: Record<string, unknown>,
  at: At,
): Omit<McpServerConfig, "name" | "transport"> {
  const include = entry["include"] === undefined
    ? undefined
    : strings(entry["include"], child(at, "include"));
  const effects = entry["effects"] === undefined
    ? {}
    : stringMap(entry["effects"], child(at, "effects"));
  for (const [tool, effect] of Object.entries(effects)) {
    if (effect !== "read" && effect !== "write") {
      throw fail(child(child(at, "effects"), tool), `must be "read" or "write": ${effect}`);
    }
  }
  const descriptions = entry["descriptions"] === undefined
    ? {}
    : stringMap(entry["descriptions"], child(at, "descriptions"));
  for (const [tool, text] of Object.entries(descriptions)) {
    if (text.trim() === "") throw fail(child(child(at, "descriptions"), tool), "must not be blank");
  }
  const prefix = entry["prefix"] === undefined
    ? `${name}_`
    : prefixOf(entry["prefix"], child(at, "prefix"));
  const timeoutMs = entry["timeoutMs"] === undefined
    ? undefined
    : integer(entry["timeoutMs"], child(at, "timeoutMs"), 1_000, 600_000);
  const maxResultBytes = entry["maxResultBytes"] === undefined ? undefined : integer(
    entry["maxResultBytes"],
    child(at, "maxResultBytes"),
    MIN_RESULT_BYTES,
    CLIENT_TOOLS_LIMITS.result_bytes,
  );
  const overflow = entry["overflow"];
  if (
    overflow !== undefined && overflow !== "error" && overflow !== "truncate" &&
    overflow !== "spill"
  ) {
    throw fail(
      child(at, "overflow"),
      `must be "error", "truncate" or "spill": ${String(overflow)}`,
    );
  }
  return {
    ...(maxResultBytes === undefined ? {} : { maxResultBytes }),
    ...(overflow === undefined ? {} : { overflow }),
    ...(include === undefined ? {} : { include }),
    exclude: entry["exclude"] === undefined ? [] : strings(entry["exclude"], child(at, "exclude")),
    effects: effects as Record<string, "read" | "write">,
    descriptions,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    prefix,
    enabled: entry["enabled"] === undefined
      ? true
      : boolean(entry["enabled"], child(at, "enabled")),
    optional: entry["optional"] === undefined
      ? false
      : boolean(entry["optional"], child(at, "optional")),
  };
}

function prefixOf(value: unknown, at: At): string {
  if (typeof value !== "string") throw fail(at, "must be a string");
  if (value !== "" && !/^[A-Za-z][A-Za-z0-9_-]{0,31}$/.test(value)) {
    throw fail(at, `must be "" or match ^[A-Za-z][A-Za-z0-9_-]{0,31}$: ${value}`);
  }
  return value;
}

/** A `${VAR}` or `${VAR:-default}` reference (group 1: the name, group 2: the default). */
export const VAR_REFERENCE: RegExp = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/;

/** The keys of a server entry whose strings {@link expandVars} expands. */
export const EXPANDED_KEYS: readonly string[] = ["command", "args", "env", "cwd", "url", "headers"];

/**
 * Replace `${VAR}` and `${VAR:-default}` with the environment's values
 * (as Claude Code does); an unset variable without a default is an error
 * naming it.
 */
export function expandVars(text: string, at: At, env: EnvGetter): string {
  return text.replace(new RegExp(VAR_REFERENCE.source, "g"), (_match, name, fallback) => {
    let value: string | undefined;
    try {
      value = env(name as string);
    } catch (error) {
      throw fail(at, `cannot read environment variable ${name}: ${(error as Error).message}`);
    }
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback as string;
    throw fail(
      at,
      `environment variable ${name} is not set (write \${${name}:-default} for a default)`,
    );
  });
}
