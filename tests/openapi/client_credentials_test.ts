/**
 * OAuth 2 client credentials for an OpenAPI source, black-box through the CLI (`call`, `batch`)
 * against real components: npm `oidc-provider` (a certified authorization server, tests/_oidc.ts)
 * with a throwaway client, and a loopback API that checks each bearer token at the server's
 * introspection endpoint (active, and minted for this API: `aud` is its resource indicator).
 *
 * Covered: the token URL and scopes read from the document's `securitySchemes`; the happy path
 * with neither the client secret nor the token in any output; one token for a whole batch run
 * (`CI=true`, no TTY), renewed before expiry when its lifetime is short (two token requests); a
 * token the API refuses (revoked) renewed once; a token for another audience refused.
 *
 * When oidc-provider cannot be installed or run, every test here is ignored with the reason.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../e2e/_cli.ts";
import {
  introspect,
  type OidcOptions,
  type OidcServer,
  oidcUnavailable,
  startOidc,
} from "../_oidc.ts";

const unavailable = await oidcUnavailable();
if (unavailable !== null) {
  console.error(
    `IGNORED: OpenAPI client credentials tests: oidc-provider unavailable: ${unavailable}`,
  );
}
const ignore = unavailable !== null;

const CLIENT_ID = "pipeline";
const CLIENT_SECRET = "cc-secret-6d1f0b7e9a2c4e8f";
const API_CLIENT = "tickets-api";
const API_SECRET = "api-secret-3b5d7f9a1c2e4f60";

/** The example API: `GET /api/tickets/{id}`, each bearer token introspected. */
interface Api {
  readonly url: URL;
  /** The tokens it was sent, in order. */
  readonly tokens: string[];
  /** Its answers' statuses, in order. */
  readonly statuses: number[];
  /** Revoke the first token it is sent (at the server) before checking it. */
  revokeFirst: boolean;
  oidc?: OidcServer;
  close(): Promise<void>;
}

async function startApi(): Promise<Api> {
  const controller = new AbortController();
  let resolveUrl: (url: URL) => void = () => {};
  const listening = new Promise<URL>((resolve) => resolveUrl = resolve);
  const tokens: string[] = [];
  const statuses: number[] = [];
  const answer = (status: number, body: unknown) => {
    statuses.push(status);
    return Response.json(body, {
      status,
      headers: status === 401 ? { "www-authenticate": 'Bearer error="invalid_token"' } : {},
    });
  };
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    signal: controller.signal,
    onListen: ({ port }) => resolveUrl(new URL(`http://127.0.0.1:${port}/api`)),
  }, async (request) => {
    const match = /^\/api\/tickets\/(\d+)$/.exec(new URL(request.url).pathname);
    if (match === null) return answer(404, { error: "no such path" });
    const token = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    if (token === undefined) return answer(401, { error: "no bearer token" });
    tokens.push(token);
    if (api.revokeFirst && tokens.length === 1) {
      const revoked = await fetch(`${api.oidc!.issuer}/token/revocation`, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa(`${CLIENT_ID}:${CLIENT_SECRET}`)}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ token }).toString(),
      });
      await revoked.body?.cancel();
    }
    const info = await introspect(api.oidc!, token, API_CLIENT, API_SECRET);
    if (info["active"] !== true) return answer(401, { error: "token not active" });
    if (info["aud"] !== api.url.href) {
      return answer(401, { error: `token is for ${String(info["aud"])}, not this API` });
    }
    return answer(200, { id: Number(match[1]), for: info["client_id"], scope: info["scope"] });
  });
  const api: Api = {
    url: await listening,
    tokens,
    statuses,
    revokeFirst: false,
    close: async () => {
      controller.abort();
      await server.finished;
    },
  };
  return api;
}

/** The API's document: its server, and an oauth2 scheme with a clientCredentials flow. */
function document(api: URL, tokenUrl: string): string {
  return `openapi: 3.0.3
info: { title: Tickets, version: "1" }
servers: [{ url: "${api.href}" }]
components:
  securitySchemes:
    machine:
      type: oauth2
      flows:
        clientCredentials:
          tokenUrl: "${tokenUrl}"
          scopes: { "tickets:read": read tickets }
security: [{ machine: ["tickets:read"] }]
paths:
  /tickets/{id}:
    get:
      operationId: getTicket
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses: { "200": { description: the ticket } }
`;
}

interface World {
  readonly dir: string;
  readonly api: Api;
  readonly oidc: OidcServer;
  /** The environment of a CLI run: the client's ID and secret, the config approved (CI). */
  readonly env: Record<string, string>;
}

/**
 * A project folder with `spec.yaml` and `magi-tools.jsonc` (client credentials asking for the
 * resource `resource(api)`, default the API itself), the API and the authorization server.
 */
async function withWorld(
  options: { ttl?: number; resource?: (api: URL) => string },
  fn: (world: World) => Promise<void>,
): Promise<void> {
  const api = await startApi();
  const other = new URL("/other-api", api.url).href;
  const oidcOptions: OidcOptions = {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: API_CLIENT,
        client_secret: API_SECRET,
        grant_types: [],
        redirect_uris: [],
        response_types: [],
      },
    ],
    resources: { [api.url.href]: "tickets:read", [other]: "other:read" },
    ...(options.ttl === undefined ? {} : { accessTokenTTL: options.ttl }),
  };
  const oidc = await startOidc(oidcOptions);
  api.oidc = oidc;
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-oauth-cc-" });
  try {
    await Deno.writeTextFile(join(dir, "spec.yaml"), document(api.url, oidc.tokenUrl));
    const config = {
      openapi: {
        tickets: {
          spec: "spec.yaml",
          clientCredentials: {
            clientIdFromEnv: "TICKETS_CLIENT_ID",
            clientSecretFromEnv: "TICKETS_CLIENT_SECRET",
            scopes: ["tickets:read"],
            resource: (options.resource ?? ((url: URL) => url.href))(api.url),
          },
        },
      },
    };
    await Deno.writeTextFile(join(dir, "magi-tools.jsonc"), JSON.stringify(config, null, 2));
    await fn({
      dir,
      api,
      oidc,
      env: {
        TICKETS_CLIENT_ID: CLIENT_ID,
        TICKETS_CLIENT_SECRET: CLIENT_SECRET,
        MAGI_TOOLS_TRUST_CONFIG: "1",
      },
    });
  } finally {
    await oidc.close();
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** `call --json getTicket {"id":N}` in the project folder. */
async function callTicket(world: World, id: number) {
  const result = await runCli(["call", "--json", "getTicket", JSON.stringify({ id })], {
    cwd: world.dir,
    env: world.env,
    raw: true,
  });
  const line = result.stdout.trim() === ""
    ? undefined
    : JSON.parse(result.stdout) as { text: string; outcome: string; error_code: string | null };
  return { ...result, line };
}

/** Neither the client secret nor any token the API saw appears in `texts`. */
function assertNoSecrets(world: World, ...texts: string[]): void {
  for (const text of texts) {
    assert.ok(!text.includes(CLIENT_SECRET), "the client secret leaked");
    for (const token of world.api.tokens) assert.ok(!text.includes(token), "a token leaked");
  }
}

Deno.test({
  name: "client credentials: a token from the document's token URL, scopes and resource asked",
  ignore,
  fn: () =>
    withWorld({}, async (world) => {
      const result = await callTicket(world, 7);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.line?.outcome, "success");
      assert.deepEqual(JSON.parse(result.line!.text), {
        id: 7,
        for: CLIENT_ID,
        scope: "tickets:read",
      });
      const requests = world.oidc.tokenRequests();
      assert.deepEqual(requests.map((r) => [r["status"], r["grant"], r["resource"]]), [
        [200, "client_credentials", world.api.url.href],
      ]);
      assert.equal(world.api.tokens.length, 1);
      assertNoSecrets(world, result.stdout, result.stderr);
    }),
});

Deno.test({
  name: "client credentials in batch (CI=true, no TTY): one token for the run, reused by items",
  ignore,
  fn: () =>
    withWorld({}, async (world) => {
      const result = await batch(world, 3);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(world.api.statuses, [200, 200, 200]);
      assert.equal(world.oidc.tokenRequests().length, 1, "the token is cached in memory");
      assert.equal(new Set(world.api.tokens).size, 1);
      assertNoSecrets(world, result.stdout, result.stderr, await outputText(world));
    }),
});

Deno.test({
  name: "client credentials: a token about to expire is renewed before it is sent",
  ignore,
  // 30 s of lifetime is less than the renewal margin (60 s): each call needs a new token.
  fn: () =>
    withWorld({ ttl: 30 }, async (world) => {
      const result = await batch(world, 2);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(world.api.statuses, [200, 200]);
      assert.equal(world.oidc.tokenRequests().length, 2);
      assert.equal(new Set(world.api.tokens).size, 2);
    }),
});

Deno.test({
  name: "client credentials: a token the API refuses (revoked) is renewed once, and the call works",
  ignore,
  fn: () =>
    withWorld({}, async (world) => {
      world.api.revokeFirst = true;
      const result = await callTicket(world, 3);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(world.api.statuses, [401, 200]);
      assert.equal(world.oidc.tokenRequests().length, 2);
      assertNoSecrets(world, result.stdout, result.stderr);
    }),
});

Deno.test({
  name: "client credentials: a token for another audience is refused by the API (http_401)",
  ignore,
  fn: () =>
    withWorld({ resource: (api) => new URL("/other-api", api).href }, async (world) => {
      const result = await callTicket(world, 5);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.line?.error_code, "http_401");
      assert.match(result.line!.text, /HTTP 401 Unauthorized: .*not this API/);
      // Refused, renewed once, refused again: never a loop.
      assert.deepEqual(world.api.statuses, [401, 401]);
      assert.equal(world.oidc.tokenRequests().length, 2);
      assertNoSecrets(world, result.stdout, result.stderr);
    }),
});

Deno.test({
  name: "client credentials: a wrong client secret is a tool error naming the token URL",
  ignore,
  fn: () =>
    withWorld({}, async (world) => {
      world.env.TICKETS_CLIENT_SECRET = "not-the-secret-0000";
      const result = await callTicket(world, 1);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(result.line?.error_code, "tool_failed");
      assert.ok(
        result.line!.text.startsWith(
          `Token request to ${world.oidc.tokenUrl} failed: HTTP 401: invalid_client`,
        ),
        result.line!.text,
      );
      assert.ok(!result.stdout.includes("not-the-secret-0000"));
      assert.equal(world.api.tokens.length, 0, "nothing reached the API");
    }),
});

/** `batch` of `items` getTicket turns, with `CI=true` and no terminal (stdin closed). */
function batch(world: World, items: number) {
  const input = Array.from(
    { length: items },
    (_, i) => JSON.stringify({ id: `t${i}`, prompt: `getTicket {"id":${i + 1}}` }),
  ).join("\n") + "\n";
  return Deno.writeTextFile(join(world.dir, "items.jsonl"), input).then(() =>
    runCli(["batch", "items.jsonl", "--out", "out", "--progress", "never"], {
      cwd: world.dir,
      env: { ...world.env, CI: "true" },
      raw: true,
      killAfterMs: 120_000,
    })
  );
}

/** Every file of the batch output folder, concatenated. */
async function outputText(world: World): Promise<string> {
  let text = "";
  for await (const entry of Deno.readDir(join(world.dir, "out"))) {
    if (entry.isFile) text += await Deno.readTextFile(join(world.dir, "out", entry.name));
  }
  return text;
}
