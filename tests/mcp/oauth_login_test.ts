/**
 * Interactive sign-in to an HTTP MCP server, black-box through the CLI (`login`, `call`,
 * `logout`) against real components: npm `oidc-provider` (tests/_oidc.ts; dynamic client
 * registration, its development login and consent pages), an MCP server built with the official
 * SDK (Streamable HTTP, `requireBearerAuth`, protected resource metadata), and headless Chromium
 * (Debian's `chromium` driven by playwright-core, tests/_browser.ts) completing the login.
 * Ignored, loudly and with the reason, without Chromium or oidc-provider.
 *
 * Covered: a start without a sign-in (exit 2, "run magi-tools login NAME"); the first sign-in
 * (URL printed, nothing of the tokens shown, the store file 0600); reuse of the stored token in
 * a later process; both tokens revoked, so the server answers 401 at the start and the refresh
 * is refused (exit 2); an expiring token refreshed before the start (twice, rotation kept); a
 * revoked refresh token (exit 2, the same clear error); `logout`.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "../e2e/_cli.ts";
import { browserTestIgnored, launchBrowser } from "../_browser.ts";
import { startInspector } from "../inspect/_inspector.ts";
import {
  completeProviderLogin,
  OIDC_UNAVAILABLE as unavailable,
  USER,
  withWorld,
  type World,
} from "./_oauth_world.ts";

if (unavailable !== null) {
  console.error(`IGNORED: MCP sign-in tests: oidc-provider unavailable: ${unavailable}`);
}
const ignore = unavailable !== null || browserTestIgnored("MCP sign-in tests (login)");

/** `login remote` in `world`, the browser part done by headless Chromium. */
async function login(world: World): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", `--lock=${ROOT}deno.full.lock`, "-A", `${ROOT}cli.ts`, "login", "remote"],
    cwd: world.dir,
    env: { NO_COLOR: "1", ...world.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).spawn();
  const stdout = new Response(child.stdout).text();
  let stderr = "";
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let url: string | undefined;
  while (url === undefined) {
    const { done, value } = await reader.read();
    if (done) break;
    stderr += value;
    url = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m.exec(stderr)?.[1];
  }
  const rest = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      stderr += value;
    }
  })();
  assert.ok(url !== undefined, `no authorization URL on stderr:\n${stderr}`);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await completeProviderLogin(page);
  } finally {
    await browser.close();
  }
  const status = await child.status;
  await rest;
  return { code: status.code, stdout: await stdout, stderr };
}

/** Revoke `token` at the authorization server, as the public client `clientId`. */
async function revoke(world: World, token: string, clientId: string): Promise<void> {
  const revoked = await fetch(`${world.oidc.issuer}/token/revocation`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token, client_id: clientId }).toString(),
  });
  assert.equal(revoked.status, 200, await revoked.text());
}

const NEEDS_SIGN_IN =
  /^magi-tools: MCP server remote needs a sign-in \((.+)\): run `magi-tools login remote`$/m;

Deno.test({
  name: "MCP sign-in: none yet → exit 2 naming login; login in a browser; reused later; logout",
  ignore,
  fn: () =>
    withWorld(3600, async (world) => {
      const before = await world.cli(["call", "remote_whoami", "{}"]);
      assert.equal(before.code, 2, before.stderr);
      assert.equal(NEEDS_SIGN_IN.exec(before.stderr)?.[1], "not signed in", before.stderr);

      const signed = await login(world);
      assert.equal(signed.code, 0, signed.stderr);
      assert.equal(signed.stdout, `Signed in to remote (${world.mcp.url})\n`);
      const stat = await Deno.stat(world.storeFile);
      assert.equal(stat.mode! & 0o777, 0o600);
      const stored = JSON.parse(await Deno.readTextFile(world.storeFile));
      const tokens = stored.servers[world.mcp.url].tokens;
      assert.equal(typeof tokens.access_token, "string");
      assert.ok(
        !signed.stderr.includes(tokens.access_token) &&
          !signed.stdout.includes(tokens.access_token),
      );

      // A later process: the stored token, no new sign-in, no refresh.
      const later = await world.cli(["call", "remote_whoami", "{}"]);
      assert.equal(later.code, 0, later.stderr);
      assert.equal(later.stdout, `user ${USER}\n`);
      assert.ok(!later.stderr.includes(tokens.access_token));
      assert.deepEqual(world.oidc.tokenRequests().map((r) => r["grant"]), ["authorization_code"]);

      // A project config that uses a sign-in is not acted upon before it is approved.
      const unapproved = await world.cli(["call", "remote_whoami", "{}"], {
        MAGI_TOOLS_TRUST_CONFIG: "0",
      });
      assert.equal(unapproved.code, 2, unapproved.stderr);
      assert.ok(
        unapproved.stderr.includes(
          `  uses your sign-in to remote: ${world.mcp.url} (magi-tools login)`,
        ),
        unapproved.stderr,
      );

      // The authorization server revokes both tokens: the server answers 401 at the start, the
      // SDK's refresh is refused, and no browser opens: exit 2 naming login.
      for (const token of [tokens.access_token, tokens.refresh_token]) {
        await revoke(world, token, stored.servers[world.mcp.url].client.client_id);
      }
      const refused = await world.cli(["call", "remote_whoami", "{}"]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.equal(
        NEEDS_SIGN_IN.exec(refused.stderr)?.[1],
        "the stored sign-in is missing or refused",
        refused.stderr,
      );
      assert.ok(!refused.stderr.includes(tokens.access_token));

      const out = await world.cli(["logout", "remote"]);
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout, "Signed out of remote\u0020(" + world.mcp.url + ")\n");
      const after = await world.cli(["call", "remote_whoami", "{}"]);
      assert.equal(after.code, 2);
      assert.equal(NEEDS_SIGN_IN.exec(after.stderr)?.[1], "not signed in", after.stderr);
    }),
});

Deno.test({
  name: "MCP sign-in: an expiring token is refreshed; a revoked refresh token is a clear exit 2",
  ignore,
  // 30 s of lifetime is less than the refresh margin (60 s): every start refreshes first.
  fn: () =>
    withWorld(30, async (world) => {
      const signed = await login(world);
      assert.equal(signed.code, 0, signed.stderr);
      for (let i = 0; i < 2; i++) {
        const call = await world.cli(["call", "remote_whoami", "{}"]);
        assert.equal(call.code, 0, call.stderr);
        assert.equal(call.stdout, `user ${USER}\n`);
      }
      assert.deepEqual(
        world.oidc.tokenRequests().map((r) => [r["grant"], r["status"]]),
        [["authorization_code", 200], ["refresh_token", 200], ["refresh_token", 200]],
      );

      // The authorization server revokes the sign-in (an admin, a password change).
      const stored = JSON.parse(await Deno.readTextFile(world.storeFile)).servers[world.mcp.url];
      await revoke(world, stored.tokens.refresh_token, stored.client.client_id);
      const refused = await world.cli(["call", "remote_whoami", "{}"]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.equal(refused.stdout, "");
      assert.equal(
        NEEDS_SIGN_IN.exec(refused.stderr)?.[1],
        "the refresh token was refused",
        refused.stderr,
      );
    }),
});

/** Two calls: the first pauses on the MCP server's hook (where the test revokes), then one more. */
const MID_SESSION_SCENARIO = {
  turns: [{
    match: "SIGNIN",
    steps: [
      { call: { tool: "remote_whoami", arguments: { note: "hook" } } },
      { call: { tool: "remote_whoami", arguments: {} } },
      { say: "{{results}}" },
    ],
  }],
};

const MID_RUN_MESSAGE = "MCP server remote needs a sign-in (the server refused the token " +
  "during the run): run `magi-tools login remote`";

for (const command of ["run", "batch"] as const) {
  Deno.test({
    name:
      `MCP sign-in: a 401 mid-run with the refresh refused ends \`${command}\` (CI) with exit 2 naming login`,
    ignore,
    async fn() {
      // The hook: while the first call runs, the authorization server revokes both tokens.
      let revokeNow: () => Promise<void> = () => Promise.reject(new Error("no world yet"));
      let hooked = 0;
      const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
        hooked++;
        await revokeNow();
        return new Response("revoked");
      });
      try {
        await withWorld(3600, async (world) => {
          const signed = await login(world);
          assert.equal(signed.code, 0, signed.stderr);
          const stored =
            JSON.parse(await Deno.readTextFile(world.storeFile)).servers[world.mcp.url];
          revokeNow = async () => {
            for (const token of [stored.tokens.access_token, stored.tokens.refresh_token]) {
              await revoke(world, token, stored.client.client_id);
            }
          };
          const scenario = join(world.dir, "scenario.json");
          await Deno.writeTextFile(scenario, JSON.stringify(MID_SESSION_SCENARIO));
          await Deno.writeTextFile(
            join(world.dir, "in.jsonl"),
            '{"id":"one","prompt":"SIGNIN"}\n{"id":"two","prompt":"SIGNIN"}\n',
          );
          const args = command === "run"
            ? ["run", "--approve", "allow=remote_whoami", "--timeout", "60", "SIGNIN"]
            : ["batch", "in.jsonl", "--out", "out", "--approve", "allow=remote_whoami"];
          const ran = await world.cli(args, { CI: "true", MAGI_SCENARIO: scenario });
          const shown = `${ran.code}\n${ran.stdout}\n${ran.stderr}`;
          assert.equal(hooked, 1, shown);
          assert.equal(ran.code, 2, shown);
          const output = command === "run"
            ? ran.stdout
            : await Deno.readTextFile(join(world.dir, "out", "items", "one.ndjson"));
          const records = output.trim().split("\n").map((line) => JSON.parse(line));
          const results = records.filter((r) => r.type === "tool.result");
          assert.deepEqual(
            results.map((r) => [r.name, r.outcome, r.error_code]),
            [["remote_whoami", "success", null], ["remote_whoami", "error", "sign_in_required"]],
          );
          const last = records.at(-1);
          assert.equal(last.type, "host.error", output);
          assert.equal(last.code, "sign_in_required");
          assert.equal(last.exit_code, 2);
          assert.equal(last.message, MID_RUN_MESSAGE);
          assert.ok(records.every((r) => r.type !== "turn.finished"), output);
          if (command === "batch") {
            // The batch stops: the next item would meet the same refusal.
            assert.ok(ran.stderr.includes(`Batch stopped: ${MID_RUN_MESSAGE}`), ran.stderr);
            const summary = JSON.parse(ran.stdout.trim().split("\n").at(-1)!);
            assert.equal(summary.exit_code, 2);
            assert.equal(summary.not_run, 1);
          }
          assert.ok(!ran.stdout.includes(stored.tokens.access_token));
          assert.ok(!ran.stderr.includes(stored.tokens.access_token));
        }, `http://127.0.0.1:${hook.addr.port}/`);
      } finally {
        await hook.shutdown();
      }
    },
  });
}

Deno.test({
  name: "MCP sign-in: inspect starts without the server that needs a sign-in and shows `login`",
  ignore: unavailable !== null,
  fn: () =>
    withWorld(3600, async (world) => {
      const inspector = await startInspector({
        cwd: world.dir,
        env: world.env,
      });
      try {
        const answer = await fetch(`${inspector.base}/api/tools`, {
          headers: { authorization: `Bearer ${inspector.token}` },
        });
        assert.equal(answer.status, 200);
        const view = await answer.json();
        const message =
          "MCP server remote needs a sign-in (not signed in): run `magi-tools login remote`";
        assert.deepEqual(view.errors, [{ file: "mcp:remote", reason: message }]);
        // The other tools are there (the fixture tools of the inspector's --tools).
        assert.ok(view.tools.some((tool: { name: string }) => tool.name === "form_echo"));
        assert.ok(inspector.stderr().includes(`magi-tools: ${message}`), inspector.stderr());
      } finally {
        assert.equal(await inspector.stop(), 130); // SIGINT
      }
    }),
});
