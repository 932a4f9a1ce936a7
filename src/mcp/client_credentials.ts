/**
 * OAuth 2 client credentials for an HTTP MCP server (`clientCredentials` of
 * an `mcpServers` entry with `url`): a `fetch` for the SDK's Streamable HTTP
 * client transport that sends `Authorization: Bearer <token>` with every
 * request, the token asked for at the configured token URL (never one the
 * server advertises: the approved config decides where the secret goes) by
 * the same client as OpenAPI sources' (`src/openapi/oauth.ts`: cached in
 * memory, renewed before expiry, the client secret redacted from errors).
 * A `401` drops the token and sends the request once more with a new one.
 *
 * @module
 */

import type { McpClientCredentials } from "../config/mcp_servers.ts";
import { readEnv } from "../openapi/auth.ts";
import { ClientCredentialsTokens } from "../openapi/oauth.ts";

/** Token requests give up after this long, ms. */
const TOKEN_TIMEOUT_MS = 30_000;

/**
 * A `fetch` that authenticates each request with a client credentials token.
 *
 * @example
 * ```ts ignore
 * const transport = new StreamableHTTPClientTransport(new URL(url), {
 *   fetch: clientCredentialsFetch(config.transport.clientCredentials),
 * });
 * ```
 */
export function clientCredentialsFetch(cc: McpClientCredentials): typeof fetch {
  const tokens = new ClientCredentialsTokens(cc, new URL(cc.tokenUrl), readEnv, TOKEN_TIMEOUT_MS);
  const send = async (input: RequestInfo | URL, init: RequestInit | undefined) => {
    const token = await tokens.token();
    const headers = new Headers(init?.headers);
    headers.set("authorization", `Bearer ${token}`);
    return { token, response: await fetch(input, { ...init, headers }) };
  };
  return async (input, init) => {
    const first = await send(input, init);
    if (first.response.status !== 401) return first.response;
    // Expired early or revoked: one more try with a new token; a second 401 is the answer.
    await first.response.body?.cancel();
    tokens.invalidate(first.token);
    return (await send(input, init)).response;
  };
}
