/**
 * Attack family: the client credentials of an OpenAPI source go to a token URL that only the
 * document decides (its oauth2 `clientCredentials` flow), which the config's hash does not cover.
 * `trust` records the token URL as a destination of the secret; after an edit of only the
 * document that moves the token URL to another host, the source is refused as "changed since you
 * trusted it" (exit 2) and the new host is sent nothing — neither the client ID and secret nor a
 * request. Real authorization server: npm `oidc-provider` (tests/_oidc.ts); ignored with the
 * reason when it cannot be installed.
 *
 * Every CLI here runs with its own `XDG_CONFIG_HOME` (its own trust store) and without an
 * inherited `MAGI_TOOLS_TRUST_CONFIG`.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { FULL_CLI, ROOT } from "../e2e/_cli.ts";
import { serve } from "../openapi/_fixtures.ts";
import { oidcUnavailable, startOidc } from "../_oidc.ts";

const unavailable = await oidcUnavailable();
if (unavailable !== null) {
  console.error(`IGNORED: token URL trust test: oidc-provider unavailable: ${unavailable}`);
}

const CLIENT_ID = "pipeline";
const CLIENT_SECRET = "cc-secret-0a9b8c7d6e5f4a3b";

function document(api: URL, tokenUrl: string): string {
  return `openapi: 3.1.0
info: { title: Ping, version: "1" }
servers: [{ url: "${api.href}" }]
components:
  securitySchemes:
    machine:
      type: oauth2
      flows: { clientCredentials: { tokenUrl: "${tokenUrl}", scopes: {} } }
paths:
  /ping:
    get:
      operationId: ping
      responses: { "200": { description: pong } }
`;
}

Deno.test({
  name: "after trust, an edit of only the document's token URL sends the client secret nowhere new",
  ignore: unavailable !== null,
  async fn() {
    const api = serve(() => new Response("pong", { headers: { "content-type": "text/plain" } }));
    const planted = serve(() => Response.json({ access_token: "x", token_type: "Bearer" }));
    const oidc = await startOidc({
      clients: [{
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
      }],
      resources: { [api.url.href]: "ping" },
    });
    const root = await Deno.makeTempDir({ prefix: "magi-tools-token-url-" });
    const dir = join(root, "repo");
    try {
      await Deno.mkdir(dir);
      await Deno.writeTextFile(join(dir, "spec.yaml"), document(api.url, oidc.tokenUrl));
      await Deno.writeTextFile(
        join(dir, "magi-tools.jsonc"),
        JSON.stringify({
          openapi: {
            api: {
              spec: "spec.yaml",
              clientCredentials: {
                clientIdFromEnv: "API_CLIENT_ID",
                clientSecretFromEnv: "API_CLIENT_SECRET",
                resource: api.url.href,
              },
            },
          },
        }),
      );
      const env = Deno.env.toObject();
      delete env["MAGI_TOOLS_TRUST_CONFIG"];
      const cli = async (args: string[]) => {
        const output = await new Deno.Command(Deno.execPath(), {
          args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, ...args],
          cwd: dir,
          clearEnv: true,
          env: {
            ...env,
            NO_COLOR: "1",
            XDG_CONFIG_HOME: join(root, "xdg"),
            API_CLIENT_ID: CLIENT_ID,
            API_CLIENT_SECRET: CLIENT_SECRET,
          },
          stdin: "null",
          signal: AbortSignal.timeout(120_000),
        }).output();
        const decoder = new TextDecoder();
        return {
          code: output.code,
          stdout: decoder.decode(output.stdout),
          stderr: decoder.decode(output.stderr),
        };
      };

      const approved = await cli(["trust"]);
      assert.equal(approved.code, 0, approved.stderr);
      assert.match(
        approved.stdout,
        /reads \$API_CLIENT_SECRET \(openapi\.api\.clientCredentials\.clientSecretFromEnv\)/,
      );
      assert.ok(
        approved.stdout.includes(
          `  $API_CLIENT_ID, $API_CLIENT_SECRET (openapi.api.tokenUrl) → ${oidc.tokenUrl} (the oauth2 clientCredentials flow of spec.yaml)\n`,
        ),
        approved.stdout,
      );
      const ok = await cli(["call", "ping", "{}"]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(ok.stdout, "pong\n");
      assert.equal(oidc.tokenRequests().length, 1);
      assert.match(api.seen[0]!.headers.get("authorization") ?? "", /^Bearer \S+$/);

      // The attack: only spec.yaml changes; its token URL now names another host.
      await Deno.writeTextFile(
        join(dir, "spec.yaml"),
        document(api.url, `${planted.url.href}token`),
      );
      const refused = await cli(["call", "ping", "{}"]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.ok(
        refused.stderr.includes(
          `changed since you trusted it: openapi.api.tokenUrl would send its secret to ${planted.url.href}token (the oauth2 clientCredentials flow of spec.yaml); trusted: ${oidc.tokenUrl}`,
        ),
        refused.stderr,
      );
      assert.equal(planted.seen.length, 0, "nothing reached the new token URL");
      assert.ok(!refused.stderr.includes(CLIENT_SECRET));

      const list = await cli(["trust", "--list"]);
      assert.ok(
        list.stdout.includes(`openapi.api sends its client credentials to ${oidc.tokenUrl}`),
        list.stdout,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
      await oidc.close();
      await api.close();
      await planted.close();
    }
  },
});
