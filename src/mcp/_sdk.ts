/**
 * The MCP SDK's modules this folder uses, with the SDK's pinned `npm:` specifier stated once.
 *
 * The SDK is not in the root `deno.json` import map: `deno task` installs every package of that
 * map before any task runs, and the demo does not need the SDK. Only `src/mcp/` imports it, and
 * the rest of the CLI loads `src/mcp/` through the non-literal dynamic import of
 * `src/sources/features.ts`, so a command without MCP never resolves it. The version here, the
 * one of `dev/deno.json` and the entries of `deno.full.lock` and `dev/deno.lock` agree
 * (`tests/scripts/locks_test.ts`; docs/packages.md says how to change it).
 *
 * @module
 */

export { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
export { StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js";
export { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
export { WebStandardStreamableHTTPServerTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js";
export { ReadBuffer, serializeMessage } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/stdio.js";
export type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
export {
  CallToolRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  ToolListChangedNotificationSchema,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
export type { JSONRPCMessage, Tool } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
export { AjvJsonSchemaValidator } from "npm:@modelcontextprotocol/sdk@1.32.2/validation/ajv";
export { auth, UnauthorizedError } from "npm:@modelcontextprotocol/sdk@1.32.2/client/auth.js";
export type { OAuthClientProvider } from "npm:@modelcontextprotocol/sdk@1.32.2/client/auth.js";
export type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "npm:@modelcontextprotocol/sdk@1.32.2/shared/auth.js";
