// The OAuth-protected MCP server of the OAuth tests: the official MCP SDK's Streamable HTTP
// transport behind its bearer-auth middleware (`requireBearerAuth`), each token checked at the
// authorization server's introspection endpoint (tests/_oidc.ts starts both). Run by node from
// .tools/oauth/.
//
// argv[2]: { "issuer": …, "introspectionClient": [id, secret], "hook"?: URL }: `whoami` with
// `note: "hook"` POSTs to `hook` and waits for its answer before answering (a test's pause).
// stdout: {"event":"listening","url":…} first, then {"event":"call","status":…} per MCP request.
import { createServer } from "node:http";
import express from "express";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import {
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
} from "@modelcontextprotocol/sdk/server/auth/router.js";

const options = JSON.parse(process.argv[2] ?? "{}");
const [clientId, clientSecret] = options.introspectionClient;
const server = createServer();
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/mcp`;

const verifier = {
  async verifyAccessToken(token) {
    const response = await fetch(`${options.issuer}/token/introspection`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token }).toString(),
    });
    const info = await response.json();
    if (info.active !== true) {
      throw new InvalidTokenError("Token is not active");
    }
    return {
      token,
      clientId: info.client_id,
      scopes: typeof info.scope === "string" ? info.scope.split(" ") : [],
      expiresAt: info.exp,
      ...(typeof info.aud === "string" ? { resource: new URL(info.aud) } : {}),
      extra: { sub: info.sub },
    };
  },
};

const app = express();
app.use(express.json());
// Protected resource metadata (RFC 9728): where clients that sign in find the authorization server.
const discovery = `${options.issuer}/.well-known/openid-configuration`;
const oauthMetadata = await (await fetch(discovery)).json();
app.use(
  mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: new URL(url) }),
);
const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(url));
app.use((_req, res, next) => {
  res.on("finish", () => {
    process.stdout.write(
      JSON.stringify({ event: "call", status: res.statusCode }) + "\n",
    );
  });
  next();
});
app.post(
  "/mcp",
  requireBearerAuth({
    verifier,
    expectedResource: new URL(url),
    resourceMetadataUrl,
  }),
  async (req, res) => {
    const mcp = new McpServer({ name: "oauth-test", version: "1.0.0" });
    mcp.registerTool("whoami", {
      description: "Who the bearer token was issued to",
      inputSchema: { note: z.string().optional() },
    }, async (args, extra) => {
      if (args.note === "hook" && typeof options.hook === "string") {
        await (await fetch(options.hook, { method: "POST" })).text();
      }
      return {
        content: [{
          type: "text",
          // A signed-in user's token names the user; a client credentials token only the client.
          text: extra.authInfo?.extra?.sub === undefined
            ? `client ${extra.authInfo?.clientId}`
            : `user ${extra.authInfo.extra.sub}`,
        }],
      };
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
    });
    res.on("close", () => {
      transport.close();
      mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  },
);
server.on("request", app);
process.stdout.write(JSON.stringify({ event: "listening", url }) + "\n");
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
