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

/** `oauth` of an HTTP server: sign in with `magi-tools login NAME` (authorization code + PKCE). */
export interface McpOAuth {
  /** Scopes asked for (none: what the server's metadata lists, else the server's default). */
  readonly scopes: readonly string[];
}

/**
 * OAuth 2 client credentials of an HTTP server (`clientCredentials`): the
 * same shape as an OpenAPI entry's, with `tokenUrl` required (there is no
 * document to read it from) and `resource` defaulting to the server's `url`
 * (the MCP authorization spec's resource indicator).
 */
export interface McpClientCredentials {
  /** The token endpoint. */
  readonly tokenUrl: string;
  /** The environment variable holding the client ID. */
  readonly clientIdFromEnv: string;
  /** The environment variable holding the client secret. */
  readonly clientSecretFromEnv: string;
  /** Scopes asked for (none: the server's default). */
  readonly scopes: readonly string[];
  /** The resource indicator asked for (RFC 8707). */
  readonly resource: string;
}

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
  const expand = (text: string, where: At) => expandVars(text, where, env);
  const type = entry["type"] === undefined ? undefined : string(entry["type"], child(at, "type"));
  const hasCommand = entry["command"] !== undefined;
  const hasUrl = entry["url"] !== undefined;
  if (hasCommand === hasUrl) {
    throw fail(at, 'needs exactly one of "command" (stdio) or "url" (HTTP)');
  }
  let transport: McpTransportConfig;
  if (hasCommand) {
    if (type !== undefined && type !== "stdio") {
      throw fail(child(at, "type"), `must be "stdio" with "command": ${type}`);
    }
    for (const key of ["headers", "clientCredentials", "oauth"]) {
      if (entry[key] !== undefined) throw fail(child(at, key), 'is only for "url" servers');
    }
    const args = entry["args"] === undefined ? [] : strings(entry["args"], child(at, "args"), true);
    const envMap = entry["env"] === undefined ? {} : stringMap(entry["env"], child(at, "env"));
    const cwd = entry["cwd"] === undefined ? undefined : string(entry["cwd"], child(at, "cwd"));
    transport = {
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
  } else {
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
      const value = object(entry["oauth"], oauthAt);
      knownKeys(value, ["scopes"], oauthAt);
      const scopes = value["scopes"] === undefined
        ? []
        : strings(value["scopes"], child(oauthAt, "scopes"));
      scopes.forEach((scope, index) => {
        if (!SCOPE.test(scope)) {
          throw fail(child(child(oauthAt, "scopes"), index), "must be an OAuth scope token");
        }
      });
      oauth = Object.freeze({ scopes });
    }
    transport = {
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
  return Object.freeze({
    name,
    transport: Object.freeze(transport),
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
  });
}

const CLIENT_CREDENTIALS_KEYS = [
  "tokenUrl",
  "clientIdFromEnv",
  "clientSecretFromEnv",
  "scopes",
  "resource",
] as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The `clientCredentials` of an HTTP server at `url` (not expanded: no `${VAR}` in it). */
function clientCredentialsOf(value: unknown, at: At, url: string): McpClientCredentials {
  const entry = object(value, at);
  knownKeys(entry, CLIENT_CREDENTIALS_KEYS, at);
  const tokenAt = child(at, "tokenUrl");
  const tokenUrl = string(entry["tokenUrl"], tokenAt);
  const parsed = URL.parse(tokenUrl);
  if (
    parsed === null || (parsed.protocol !== "http:" && parsed.protocol !== "https:") ||
    parsed.username !== "" || parsed.password !== "" || parsed.search !== "" || parsed.hash !== ""
  ) {
    throw fail(
      tokenAt,
      `must be an http(s) URL without credentials, query or fragment: ${tokenUrl}`,
    );
  }
  const variable = (key: "clientIdFromEnv" | "clientSecretFromEnv") => {
    const name = string(entry[key], child(at, key));
    if (!ENV_NAME.test(name)) throw fail(child(at, key), "must be an environment variable name");
    return name;
  };
  const scopes = entry["scopes"] === undefined ? [] : strings(entry["scopes"], child(at, "scopes"));
  scopes.forEach((scope, index) => {
    if (!SCOPE.test(scope)) {
      throw fail(child(child(at, "scopes"), index), "must be an OAuth scope token");
    }
  });
  const resource = entry["resource"] === undefined
    ? url
    : string(entry["resource"], child(at, "resource"));
  if (!URL.canParse(resource) || resource.includes("#")) {
    throw fail(child(at, "resource"), "must be an absolute URI without a fragment");
  }
  return Object.freeze({
    tokenUrl: parsed.href,
    clientIdFromEnv: variable("clientIdFromEnv"),
    clientSecretFromEnv: variable("clientSecretFromEnv"),
    scopes,
    resource,
  });
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
