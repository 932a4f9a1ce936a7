/**
 * OAuth 2 client credentials for an HTTP MCP server, black-box through the CLI (`trust`, `call`)
 * against real components: npm `oidc-provider` (tests/_oidc.ts) with a throwaway client, and an
 * MCP server built with the official SDK's Streamable HTTP transport behind its bearer-auth
 * middleware (`requireBearerAuth`, dev/oauth/mcp_server.mjs), which introspects each token and
 * accepts only tokens issued for its own URL. Ignored, with the reason, when oidc-provider and
 * the SDK cannot be installed under node.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../e2e/_cli.ts";
import {
  type OidcServer,
  oidcUnavailable,
  type ProtectedMcpServer,
  startOidc,
  startProtectedMcp,
} from "../_oidc.ts";

const unavailable = await oidcUnavailable();
if (unavailable !== null) {
  console.error(`IGNORED: MCP client credentials tests: oidc-provider unavailable: ${unavailable}`);
}
const ignore = unavailable !== null;

const CLIENT_ID = "pipeline";
const CLIENT_SECRET = "mcp-cc-secret-5e4d3c2b1a09";
const SERVER_CLIENT = "mcp-server";
const SERVER_SECRET = "mcp-server-secret-8f7e6d5c";

interface World {
  readonly dir: string;
  readonly oidc: OidcServer;
  readonly mcp: ProtectedMcpServer;
  cli(args: string[], env?: Record<string, string>): ReturnType<typeof runCli>;
}

async function withWorld(
  resource: ((mcp: ProtectedMcpServer) => string) | undefined,
  fn: (world: World) => Promise<void>,
): Promise<void> {
  const oidc = await startOidc({
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: SERVER_CLIENT,
        client_secret: SERVER_SECRET,
        grant_types: [],
        redirect_uris: [],
        response_types: [],
      },
    ],
    resources: {},
    anyResourceScope: "mcp:tools",
  });
  const mcp = await startProtectedMcp(oidc, SERVER_CLIENT, SERVER_SECRET);
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-mcp-cc-" });
  try {
    const config = {
      mcpServers: {
        remote: {
          url: mcp.url,
          clientCredentials: {
            tokenUrl: oidc.tokenUrl,
            clientIdFromEnv: "REMOTE_CLIENT_ID",
            clientSecretFromEnv: "REMOTE_CLIENT_SECRET",
            scopes: ["mcp:tools"],
            ...(resource === undefined ? {} : { resource: resource(mcp) }),
          },
        },
      },
    };
    await Deno.writeTextFile(join(dir, "magi-tools.jsonc"), JSON.stringify(config, null, 2));
    await fn({
      dir,
      oidc,
      mcp,
      cli: (args, env = {}) =>
        runCli(args, {
          cwd: dir,
          raw: true,
          env: {
            REMOTE_CLIENT_ID: CLIENT_ID,
            REMOTE_CLIENT_SECRET: CLIENT_SECRET,
            XDG_CONFIG_HOME: join(dir, ".xdg"),
            MAGI_TOOLS_TRUST_CONFIG: "0",
            ...env,
          },
        }),
    });
  } finally {
    await mcp.close();
    await oidc.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "MCP client credentials: trust shows the token URL; a token for the server's URL is sent",
  ignore,
  fn: () =>
    withWorld(undefined, async (world) => {
      const trusted = await world.cli(["trust"]);
      assert.equal(trusted.code, 0, trusted.stderr);
      assert.ok(
        trusted.stdout.includes(
          `  $REMOTE_CLIENT_ID, $REMOTE_CLIENT_SECRET (mcpServers.remote.tokenUrl) → ${world.oidc.tokenUrl} (mcpServers.remote.clientCredentials.tokenUrl)\n`,
        ),
        trusted.stdout,
      );
      const result = await world.cli(["call", "remote_whoami", "{}"]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `client ${CLIENT_ID}\n`);
      // One token for the whole session (initialize, list, call): cached in memory.
      const requests = world.oidc.tokenRequests();
      assert.deepEqual(requests.map((r) => [r["status"], r["grant"], r["resource"]]), [
        [200, "client_credentials", world.mcp.url],
      ]);
      // (The server has no GET stream: its 404 to the SDK's optional GET is expected.)
      assert.ok(!world.mcp.statuses().includes(401), `${world.mcp.statuses()}`);
      assert.ok(world.mcp.statuses().filter((status) => status === 200).length >= 3);
      assert.ok(!result.stdout.includes(CLIENT_SECRET) && !result.stderr.includes(CLIENT_SECRET));
    }),
});

Deno.test({
  name: "MCP client credentials: a token for another audience is refused, the start fails (exit 2)",
  ignore,
  fn: () =>
    withWorld(() => "http://127.0.0.1:9/another-server", async (world) => {
      const result = await world.cli(["call", "remote_whoami", "{}"], {
        MAGI_TOOLS_TRUST_CONFIG: "1",
      });
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stdout, "");
      assert.match(
        result.stderr,
        /^magi-tools: MCP server remote failed to start \(URL http:\/\/127\.0\.0\.1:\d+\/mcp\): .*Token was not issued for this resource/m,
      );
      // Refused, renewed once, refused again: no loop.
      assert.deepEqual(world.mcp.statuses(), [401, 401]);
      assert.equal(world.oidc.tokenRequests().length, 2);
      assert.ok(!result.stderr.includes(CLIENT_SECRET));
    }),
});
