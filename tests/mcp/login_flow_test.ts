/**
 * `signIn()` (src/mcp/login_flow.ts) stopped by its `signal`, as the inspector stops a waiting
 * sign-in on Ctrl-C: against the real authorization server and MCP server of the sign-in tests
 * (tests/mcp/_oauth_world.ts), the flow rejects with the signal's reason, its loopback listener is
 * closed while this process goes on, and nothing is stored. Ignored, loudly, without
 * oidc-provider.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { signIn } from "../../src/mcp/login_flow.ts";
import { OIDC_UNAVAILABLE, withWorld } from "./_oauth_world.ts";

if (OIDC_UNAVAILABLE !== null) {
  console.error(`IGNORED: signIn() abort tests: oidc-provider unavailable: ${OIDC_UNAVAILABLE}`);
}

/** Whether something answers HTTP on `url`'s port, leaving the flow be. */
async function listening(url: string): Promise<boolean> {
  try {
    // Not the callback path itself: a request there is an answer, and would end the flow.
    const response = await fetch(new URL("/", url));
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

Deno.test({
  name: "signIn() stops when its signal aborts: rejects with the reason, listener closed",
  ignore: OIDC_UNAVAILABLE !== null,
  fn: () =>
    withWorld(3600, async (world) => {
      const storePath = join(world.dir, "store", "oauth-sessions.json");
      const stop = new AbortController();
      let redirect: string | null = null;
      const flow = signIn({
        server: "remote",
        serverUrl: world.mcp.url,
        storePath,
        scopes: ["openid", "mcp:tools"],
        timeoutMs: 600_000,
        signal: stop.signal,
        open: (url) => {
          redirect = url.searchParams.get("redirect_uri");
        },
      });
      // The flow waits for the browser: its listener answers until the abort.
      for (let i = 0; redirect === null && i < 3_000; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(redirect !== null, "no authorization URL");
      assert.ok(await listening(redirect), "the listener waits for the redirect");
      stop.abort(new Error("the inspector stopped"));
      await assert.rejects(flow, { message: "the inspector stopped" });
      assert.ok(!await listening(redirect), "the listener is closed after the abort");
      const stored = await Deno.readTextFile(storePath).catch(() => "");
      assert.ok(!stored.includes("access_token"), stored);

      // Aborted before it starts: rejects at once, without contacting anyone.
      const before = world.oidc.events.length;
      await assert.rejects(
        signIn({
          server: "remote",
          serverUrl: world.mcp.url,
          storePath,
          scopes: [],
          timeoutMs: 600_000,
          signal: AbortSignal.abort(new Error("cancelled early")),
          open: () => assert.fail("no authorization URL after an abort"),
        }),
        { message: "cancelled early" },
      );
      assert.equal(world.oidc.events.length, before);
    }),
});
