/**
 * The inspector's sign-in button (src/inspect/sign_in.ts, sign_in_page.ts), black-box through
 * `magi-tools inspect` against the real components of the sign-in tests (tests/mcp/_oauth_world.ts:
 * npm `oidc-provider`, an MCP server built with the official SDK behind `requireBearerAuth`) and
 * headless Chromium. Ignored, loudly and with the reason, without oidc-provider (both) or Chromium
 * (the page's test).
 *
 * Covered: the button beside the `login` text; a click opens the authorization server's page in a
 * new tab and shows its URL as a link; the user cancels there → the page says why; a second click
 * → a new flow, the user signs in → the server's tools join the page without a restart and a call
 * from the page uses the sign-in; a later `call` process uses the stored token. Over HTTP: no
 * token (401), a foreign Origin or no Origin (403), a cross-site fetch (403), an unknown server
 * (404); a second request while one waits answers the same URL (one listener); a redirect with the
 * wrong `state` fails the flow (shown in the view, the listener closed) and a new one can start;
 * Ctrl-C with a flow waiting stops promptly (the abort itself: tests/mcp/login_flow_test.ts).
 */

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ARTIFACTS, browserTestIgnored, withBrowser } from "../_browser.ts";
import { eventually } from "../_wait.ts";
import {
  completeProviderLogin,
  OIDC_UNAVAILABLE,
  storedSignIn,
  USER,
  withWorld,
  type World,
} from "../mcp/_oauth_world.ts";
import { type Inspector, startInspector } from "./_inspector.ts";

if (OIDC_UNAVAILABLE !== null) {
  console.error(`IGNORED: inspect sign-in tests: oidc-provider unavailable: ${OIDC_UNAVAILABLE}`);
}

const LOGIN_TEXT =
  "MCP server remote needs a sign-in (not signed in): run `magi-tools login remote`";

/** The inspector of `world` (its project, its user's state), with the fixture tools. */
function inspectorOf(world: World): Promise<Inspector> {
  return startInspector({ cwd: world.dir, env: world.env });
}

/** `POST /api/sign-in` as the page sends it (token, same Origin), with `headers` on top. */
async function postSignIn(
  inspector: Inspector,
  server: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${inspector.base}/api/sign-in`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${inspector.token}`,
      origin: inspector.base,
      "content-type": "application/json",
      ...headers,
    },
    body: JSON.stringify({ server }),
  });
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  return { status: response.status, body };
}

/** The inspector's view (`GET /api/tools`). */
async function view(
  inspector: Inspector,
): Promise<Record<string, unknown> & { sign_ins: unknown }> {
  const response = await fetch(`${inspector.base}/api/tools`, {
    headers: { authorization: `Bearer ${inspector.token}` },
  });
  assert.equal(response.status, 200);
  return await response.json();
}

/** Whether something listens on `url`'s port (the loopback redirect listener), leaving it be. */
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
  name: "inspect sign-in over HTTP: the gate, unknown names, one listener per flow, wrong state",
  ignore: OIDC_UNAVAILABLE !== null,
  fn: () =>
    withWorld(3600, async (world) => {
      const inspector = await inspectorOf(world);
      let stopped = false;
      try {
        const start = await view(inspector);
        assert.deepEqual(start.sign_ins, [{ server: "remote", state: "needed", message: null }]);

        // The gate: no token, a foreign Origin, no Origin, a cross-site fetch.
        assert.equal((await postSignIn(inspector, "remote", { authorization: "" })).status, 401);
        const foreign = await postSignIn(inspector, "remote", { origin: "https://evil.example" });
        assert.equal(foreign.status, 403);
        const noOrigin = await fetch(`${inspector.base}/api/sign-in`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${inspector.token}`,
            "content-type": "application/json",
          },
          body: JSON.stringify({ server: "remote" }),
        });
        assert.equal(noOrigin.status, 403, await noOrigin.text());
        const crossSite = await postSignIn(inspector, "remote", { "sec-fetch-site": "cross-site" });
        assert.equal(crossSite.status, 403);
        // Only the config's servers that need a sign-in.
        for (const name of ["nope", "form_echo", "../remote", ""]) {
          const unknown = await postSignIn(inspector, name);
          assert.equal(unknown.status, 404, `${name}: ${JSON.stringify(unknown.body)}`);
        }
        assert.equal((await postSignIn(inspector, 42)).status, 400);
        // None of the refusals started a flow.
        assert.deepEqual((await view(inspector)).sign_ins, start.sign_ins);

        // A flow: the authorization server's URL; a second request joins it (same listener).
        const first = await postSignIn(inspector, "remote");
        assert.equal(first.status, 200, JSON.stringify(first.body));
        assert.equal(first.body.status, "pending");
        const url = new URL(String(first.body.authorization_url));
        assert.equal(url.origin + url.pathname, `${world.oidc.issuer}/auth`);
        assert.equal(url.searchParams.get("code_challenge_method"), "S256");
        assert.equal(url.searchParams.get("resource"), world.mcp.url);
        assert.ok(!url.href.includes(inspector.token));
        const again = await postSignIn(inspector, "remote");
        assert.deepEqual(again.body, first.body);
        assert.deepEqual((await view(inspector)).sign_ins, [
          { server: "remote", state: "pending", message: null },
        ]);

        // Another answer than the one this flow waits for (a wrong `state`) ends it, clearly.
        const redirect = url.searchParams.get("redirect_uri")!;
        assert.match(redirect, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
        const forged = await fetch(`${redirect}?code=stolen&state=not-this-login`);
        assert.equal(forged.status, 400);
        await forged.body?.cancel();
        const failed = [{
          server: "remote",
          state: "failed",
          message: "the redirect's state does not match this login",
        }];
        const failedView = async () => {
          const now = (await view(inspector)).sign_ins;
          return JSON.stringify(now) === JSON.stringify(failed);
        };
        assert.ok(await eventually(failedView), JSON.stringify((await view(inspector)).sign_ins));
        assert.ok(!await listening(redirect), "the failed flow's listener is closed");
        assert.match(
          inspector.stderr(),
          /magi-tools: sign-in to remote failed: the redirect's state does not match this login/,
        );

        // A new flow after the failure (a new listener); Ctrl-C while it waits stops at once.
        const retry = await postSignIn(inspector, "remote");
        assert.equal(retry.body.status, "pending");
        const retryRedirect = new URL(String(retry.body.authorization_url)).searchParams.get(
          "redirect_uri",
        )!;
        assert.notEqual(retryRedirect, redirect);
        assert.ok(await listening(retryRedirect));
        assert.deepEqual((await view(inspector)).sign_ins, [
          { server: "remote", state: "pending", message: null },
        ]);
        const began = Date.now();
        stopped = true;
        assert.equal(await inspector.stop(), 130);
        assert.ok(Date.now() - began < 15_000, `stopping took ${Date.now() - began} ms`);
        assert.ok(!inspector.stderr().includes(inspector.token));
        // The store may hold the registration, never tokens.
        const store = await Deno.readTextFile(world.storeFile).catch(() => "");
        assert.ok(!store.includes("access_token"), store);
      } finally {
        if (!stopped) assert.equal(await inspector.stop(), 130);
      }
    }),
});

const SHOTS = `${ARTIFACTS}inspect/`;

/** Click the page's sign-in button; resolves with the new tab the click opened. */
async function clickSignIn(page: Page): Promise<Page> {
  const [tab] = await Promise.all([
    page.context().waitForEvent("page", { timeout: 30_000 }),
    page.click("[data-test=sign-in-remote]"),
  ]);
  await tab.waitForLoadState("domcontentloaded");
  return tab;
}

Deno.test({
  name:
    "inspect sign-in in Chromium: the button, a cancelled login, then a login whose tools appear",
  ignore: OIDC_UNAVAILABLE !== null || browserTestIgnored("inspect sign-in"),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withWorld(3600, async (world) => {
      const inspector = await inspectorOf(world);
      try {
        await withBrowser(async (browser) => {
          const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
          const page = await context.newPage();
          const errors: string[] = [];
          page.on("pageerror", (error) => errors.push(error.message));
          await page.goto(inspector.url);
          await page.waitForSelector("[data-test=connection]:has-text('live')");
          await page.waitForSelector("[data-test=tool-form_echo]");

          // The server's error with the `login` text, and the button beside it.
          const error = page.locator("[data-test=load-error]", { hasText: "mcp:remote" });
          assert.equal(
            (await error.textContent())?.replace("Sign in to remote", ""),
            `mcp:remote: ${LOGIN_TEXT}`,
          );
          assert.equal(await page.textContent("[data-test=sign-in-remote]"), "Sign in to remote");
          assert.equal(await page.locator("[data-test=tool-remote_whoami]").count(), 0);
          await Deno.mkdir(SHOTS, { recursive: true });
          await page.screenshot({ path: `${SHOTS}sign-in-button.png`, fullPage: true });

          // A click: the authorization server's page in a new tab, its URL as a link too.
          let tab = await clickSignIn(page);
          assert.ok(tab.url().startsWith(world.oidc.issuer), tab.url());
          const link = page.locator("[data-test=sign-in-link]");
          const href = (await link.getAttribute("href"))!;
          assert.ok(href.startsWith(`${world.oidc.issuer}/auth?`), href);
          assert.equal(await link.getAttribute("rel"), "noopener noreferrer");
          assert.match(
            (await page.textContent("[data-test=sign-in-status]"))!,
            /Waiting for the sign-in/,
          );
          // The user cancels on the authorization server's page: the page says why.
          await tab.click("a:has-text('Cancel')");
          await tab.waitForURL(/\/callback\?/);
          assert.match(await tab.textContent("body") ?? "", /Sign-in failed/);
          await tab.close();
          await page.locator("[data-test=sign-in-status]", { hasText: "access_denied" }).waitFor();
          assert.match(
            (await page.textContent("[data-test=sign-in-status]"))!,
            /^Sign-in failed: the authorization server answered access_denied/,
          );
          await page.screenshot({ path: `${SHOTS}sign-in-failed.png`, fullPage: true });

          // Again, and this time the user signs in: the server's tools come without a restart.
          tab = await clickSignIn(page);
          await completeProviderLogin(tab);
          await tab.close();
          await page.waitForSelector("[data-test=tool-remote_whoami]", { timeout: 60_000 });
          assert.equal(await page.locator("[data-test=load-error]").count(), 0);
          assert.equal(await page.isHidden("[data-test=load-errors]"), true);
          await page.click("[data-test=tool-remote_whoami]");
          await page.click("[data-test=call-button]");
          await page.waitForSelector("[data-test=outcome]");
          assert.equal(await page.textContent("[data-test=outcome]"), "success");
          assert.equal(await page.textContent("[data-test=call-result] pre"), `user ${USER}`);
          await page.screenshot({ path: `${SHOTS}sign-in-done.png`, fullPage: true });
          // Signed in: the name is no longer one to sign in to.
          assert.equal((await postSignIn(inspector, "remote")).status, 409);

          const { tokens } = await storedSignIn(world);
          const shown = await page.content();
          for (const secret of [inspector.token, tokens.access_token, tokens.refresh_token]) {
            assert.ok(!shown.includes(secret), "no token in the page");
            assert.ok(!inspector.stderr().includes(secret), "no token on stderr");
          }
          assert.deepEqual(errors, []);
          await context.close();
        });
      } finally {
        assert.equal(await inspector.stop(), 130);
      }
      assert.match(inspector.stderr(), /magi-tools: signed in to remote; its tools are loaded/);

      // A later process uses the stored sign-in: no new login, no refresh.
      const later = await world.cli(["call", "remote_whoami", "{}"]);
      assert.equal(later.code, 0, later.stderr);
      assert.equal(later.stdout, `user ${USER}\n`);
      assert.deepEqual(world.oidc.tokenRequests().map((r) => r["grant"]), ["authorization_code"]);
      const listed = await world.cli(["tools"]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /remote_whoami/);
    }),
});
