/**
 * MCP in both directions, over the official SDK (`npm:@modelcontextprotocol/sdk`):
 *
 * - As a tool source: `source.ts` starts one configured server (stdio child in its own
 *   process group, or Streamable HTTP), lists its tools and turns each into an
 *   `ExternalTool` (`names.ts` maps names to the client-tools grammar; `results.ts` maps
 *   MCP content to text).
 * - As a front door: `server.ts` serves the host's registry as an MCP server through the
 *   same executor, over stdio (`stdio_server.ts`, `stdio_transport.ts`) or Streamable HTTP
 *   (`http.ts`, `magi-tools mcp --http PORT`, its sessions in `http_sessions.ts`); calls take
 *   fair slots (`_fair_slots.ts`) and are cancelled when their client is gone; `serve.ts` runs
 *   it for the `mcp` command. See docs/mcp.md.
 *
 * - Signing in to an HTTP server (`oauth`): `oauth_login.ts` keeps the sign-in store and sends
 *   the stored token; `login_flow.ts` runs the browser part for `login` and `inspect`.
 *
 * The rest of the CLI loads this folder on first use (`src/sources/features.ts`) and knows it
 * only through interfaces declared without the SDK (`McpSourceModule` in the config layer,
 * `serve_api.ts` and `login_api.ts` here); the SDK's modules are imported in `_sdk.ts` only.
 *
 * @module
 */

export { McpSourceError, type McpSourceOptions, startMcpSource } from "./source.ts";
export { forgetSignIn, SignInRequiredError, signInStorePath } from "./oauth_login.ts";
export { signIn, type SignInOptions } from "./login_flow.ts";
export { LOGIN_TIMEOUT_MS, type McpLoginModule, type SignInRequest } from "./login_api.ts";
export type { McpSource } from "./source.ts";
export { createMcpServer, type McpServerOptions, mcpToolList, ProgressRoutes } from "./server.ts";
export { type GuardedStdioOptions, GuardedStdioTransport } from "./stdio_server.ts";
export { type McpHttpOptions, type McpHttpServer, serveMcpHttp } from "./http.ts";
export { serveRegistry } from "./serve.ts";
export type {
  McpServeModule,
  ServeOutcome,
  ServeRegistryOptions,
  ServeTransport,
} from "./serve_api.ts";
