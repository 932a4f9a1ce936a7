/**
 * How an HTTP server of `mcpServers` authenticates, checked: `clientCredentials` (OAuth 2
 * client credentials: a token asked for at `tokenUrl`) or `oauth` (interactive sign-in with
 * `magi-tools login NAME`). `mcp_servers.ts` parses the rest of the entry and re-exports the
 * types.
 *
 * @module
 */

import { type At, child, fail, knownKeys, object, string, strings } from "./_check.ts";

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
export function clientCredentialsOf(value: unknown, at: At, url: string): McpClientCredentials {
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

/** The `oauth` of an HTTP server: its scopes, each an OAuth scope token. */
export function oauthOf(value: unknown, at: At): McpOAuth {
  const entry = object(value, at);
  knownKeys(entry, ["scopes"], at);
  const scopes = entry["scopes"] === undefined ? [] : strings(entry["scopes"], child(at, "scopes"));
  scopes.forEach((scope, index) => {
    if (!SCOPE.test(scope)) {
      throw fail(child(child(at, "scopes"), index), "must be an OAuth scope token");
    }
  });
  return Object.freeze({ scopes });
}
