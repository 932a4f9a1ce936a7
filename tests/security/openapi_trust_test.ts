/**
 * Attack family: `trust` approves a config's text, but an unhashed file decides
 * where the approved token goes (issue 31 item 3). An OpenAPI source with
 * `auth.valueFromEnv` and no `baseUrl` sends the token to its document's first
 * `servers` entry: after `trust`, an edit of only the document (a pull, a
 * write tool) must not move the token to a new host and port. Through the
 * CLI: the edited document is refused as "changed since you trusted it"
 * (exit 2) and no request reaches the new server; `trust` shows where each
 * secret goes, and trusting again shows the new destination and then works.
 *
 * Every CLI here runs with its own `XDG_CONFIG_HOME` (its own trust store)
 * and without an inherited `MAGI_TOOLS_TRUST_CONFIG`.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { FULL_CLI, ROOT } from "../e2e/_cli.ts";
import { type LoopbackServer, serve } from "../openapi/_fixtures.ts";

const TOKEN = "tok-7f3a9c-approved-for-one-host";

interface Output {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function spec(server: URL): string {
  return `openapi: 3.0.3
info: { title: Ping, version: "1" }
servers: [{ url: "${server.href}" }]
paths:
  /ping:
    get:
      operationId: ping
      responses: { "200": { description: pong } }
`;
}

const CONFIG = {
  openapi: {
    api: {
      spec: "spec.yaml",
      auth: { header: "Authorization", valueFromEnv: "API_TOKEN", prefix: "Bearer " },
    },
  },
};

/** A loopback API that answers `pong from <name>` and keeps what it was sent. */
function api(name: string): LoopbackServer {
  return serve(() =>
    new Response(`pong from ${name}`, { headers: { "content-type": "text/plain" } })
  );
}

async function repository(
  fn: (
    dir: string,
    cli: (args: string[], env?: Record<string, string>) => Promise<Output>,
  ) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "magi-tools-trust-dest-" });
  const dir = join(root, "repo");
  await Deno.mkdir(dir);
  await Deno.writeTextFile(join(dir, "magi-tools.jsonc"), JSON.stringify(CONFIG, null, 2));
  const base = Deno.env.toObject();
  delete base["MAGI_TOOLS_TRUST_CONFIG"];
  const cli = async (args: string[], env: Record<string, string> = {}): Promise<Output> => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, ...args],
      cwd: dir,
      clearEnv: true,
      env: { ...base, NO_COLOR: "1", XDG_CONFIG_HOME: join(root, "xdg"), API_TOKEN: TOKEN, ...env },
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
  try {
    await fn(dir, cli);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function authorizations(server: LoopbackServer): string[] {
  return server.seen.map((request) => request.headers.get("authorization") ?? "(none)");
}

async function callPing(
  cli: (args: string[], env?: Record<string, string>) => Promise<Output>,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Output & { text?: string }> {
  const result = await cli(["call", "--json", ...args, "ping", "{}"], env);
  if (result.code !== 0) return result;
  return { ...result, text: (JSON.parse(result.stdout) as { text: string }).text };
}

Deno.test("after trust, an edit of only the document's servers sends the token nowhere new", async () => {
  const trusted = api("trusted");
  const planted = api("planted");
  try {
    await repository(async (dir, cli) => {
      await Deno.writeTextFile(join(dir, "spec.yaml"), spec(trusted.url));
      // `trust` shows where the secret goes and what decides it.
      const approved = await cli(["trust"]);
      assert.equal(approved.code, 0, approved.stderr);
      assert.match(approved.stdout, /reads \$API_TOKEN \(openapi\.api\.auth\.valueFromEnv\)/);
      assert.ok(
        approved.stdout.includes(
          `Its secrets go to:\n  $API_TOKEN (openapi.api) → ${trusted.url.href} (the first servers entry of spec.yaml)\n`,
        ),
        approved.stdout,
      );
      const ok = await callPing(cli);
      assert.equal(ok.code, 0, ok.stderr);
      assert.equal(ok.text, "pong from trusted");
      assert.deepEqual(authorizations(trusted), [`Bearer ${TOKEN}`]);

      // The attack: only spec.yaml changes (the config's text, and so its hash, do not).
      await Deno.writeTextFile(join(dir, "spec.yaml"), spec(planted.url));
      for (const args of [["call", "--json", "ping", "{}"], ["tools"]]) {
        const refused = await cli(args);
        assert.equal(refused.code, 2, `${args[0]}: ${refused.stderr}`);
        assert.equal(refused.stdout, "", args[0]);
        assert.match(
          refused.stderr,
          /Project config is not approved: \/\S+\/repo\/magi-tools\.jsonc: changed since you trusted it: /,
        );
        assert.ok(
          refused.stderr.includes(
            `openapi.api would send its secret to ${planted.url.href} (the first servers entry of spec.yaml); trusted: ${trusted.url.href}`,
          ),
          refused.stderr,
        );
        assert.match(refused.stderr, /magi-tools trust \/\S+\/repo\/magi-tools\.jsonc/);
        assert.ok(!refused.stderr.includes(TOKEN));
      }
      assert.equal(planted.seen.length, 0, "no request reached the new server");
      const list = await cli(["trust", "--list"]);
      assert.match(
        list.stdout,
        /^ok .*\/repo\/magi-tools\.jsonc\n +openapi\.api sends its secret to /m,
      );
      assert.ok(list.stdout.includes(`openapi.api sends its secret to ${trusted.url.href}`));

      // The legitimate use: trusting again shows the new destination, then it works.
      const again = await cli(["trust"]);
      assert.equal(again.code, 0, again.stderr);
      assert.ok(
        again.stdout.includes(`$API_TOKEN (openapi.api) → ${planted.url.href} (the first servers`),
        again.stdout,
      );
      const moved = await callPing(cli);
      assert.equal(moved.code, 0, moved.stderr);
      assert.equal(moved.text, "pong from planted");
      assert.deepEqual(authorizations(planted), [`Bearer ${TOKEN}`]);
      assert.equal(trusted.seen.length, 1);
    });
  } finally {
    await trusted.close();
    await planted.close();
  }
});

Deno.test("--config and MAGI_TOOLS_TRUST_CONFIG=1 approve the document as it is; a baseUrl in the config is pinned by its hash", async () => {
  const first = api("first");
  const second = api("second");
  try {
    await repository(async (dir, cli) => {
      await Deno.writeTextFile(join(dir, "spec.yaml"), spec(first.url));
      assert.equal((await cli(["trust"])).code, 0);
      await Deno.writeTextFile(join(dir, "spec.yaml"), spec(second.url));
      // Named by the user, or every config approved (CI): whatever the document says now.
      const named = await callPing(cli, ["--config", "magi-tools.jsonc"]);
      assert.equal(named.text, "pong from second", named.stderr);
      const ci = await callPing(cli, [], { MAGI_TOOLS_TRUST_CONFIG: "1" });
      assert.equal(ci.text, "pong from second", ci.stderr);
      // With baseUrl in the config, the document's servers decide nothing: no re-approval.
      const pinned = {
        openapi: { api: { ...CONFIG.openapi.api, baseUrl: first.url.href } },
      };
      await Deno.writeTextFile(join(dir, "magi-tools.jsonc"), JSON.stringify(pinned));
      const trusted = await cli(["trust"]);
      assert.ok(
        trusted.stdout.includes(`→ ${first.url.href} (openapi.api.baseUrl)`),
        trusted.stdout,
      );
      const atBase = await callPing(cli);
      assert.equal(atBase.text, "pong from first", atBase.stderr);
      assert.deepEqual(authorizations(first), [`Bearer ${TOKEN}`]);
    });
  } finally {
    await first.close();
    await second.close();
  }
});
