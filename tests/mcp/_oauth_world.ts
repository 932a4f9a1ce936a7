/**
 * The world of the interactive sign-in tests (`oauth_login_test.ts`, tests/inspect/sign_in_test.ts):
 * npm `oidc-provider` (tests/_oidc.ts) with the MCP server's introspection client, the
 * OAuth-protected MCP server (official SDK, Streamable HTTP, `requireBearerAuth`), a temporary
 * project whose `magi-tools.jsonc` names it `remote` with `oauth`, and its own per-user state and
 * config directories (the sign-in store lives there). Also the steps a person takes on
 * oidc-provider's development login and consent pages.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { runCli } from "../e2e/_cli.ts";
import {
  type OidcServer,
  oidcUnavailable,
  type ProtectedMcpServer,
  startOidc,
  startProtectedMcp,
} from "../_oidc.ts";

/** Null when oidc-provider runs here, else why not (said once on stderr by each test module). */
export const OIDC_UNAVAILABLE: string | null = await oidcUnavailable();

/** The MCP server's own client at the authorization server (token introspection). */
export const SERVER_CLIENT = "mcp-server";
const SERVER_SECRET = "mcp-server-secret-1c2d3e4f";
/** The user who signs in (oidc-provider's development login takes any password). */
export const USER = "ada";

/** One test's world. */
export interface World {
  /** The project directory (the CLI's working directory). */
  readonly dir: string;
  readonly oidc: OidcServer;
  readonly mcp: ProtectedMcpServer;
  /** The sign-in store of this world's user. */
  readonly storeFile: string;
  /** The environment of every magi-tools process of this world. */
  readonly env: Readonly<Record<string, string>>;
  /** Run the CLI in the project with this world's environment (and `env`). */
  cli(args: string[], env?: Record<string, string>): ReturnType<typeof runCli>;
}

/**
 * Run `fn` in a new world whose access tokens live `ttl` seconds (the MCP server's `whoami` with
 * `note: "hook"` POSTs to `hook` first); everything is stopped and removed afterwards.
 */
export async function withWorld(
  ttl: number,
  fn: (world: World) => Promise<void>,
  hook?: string,
): Promise<void> {
  const oidc = await startOidc({
    clients: [{
      client_id: SERVER_CLIENT,
      client_secret: SERVER_SECRET,
      grant_types: [],
      redirect_uris: [],
      response_types: [],
    }],
    resources: {},
    anyResourceScope: "mcp:tools",
    accessTokenTTL: ttl,
  });
  const mcp = await startProtectedMcp(oidc, SERVER_CLIENT, SERVER_SECRET, hook);
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-mcp-login-" });
  try {
    const config = {
      mcpServers: { remote: { url: mcp.url, oauth: { scopes: ["openid", "mcp:tools"] } } },
    };
    await Deno.writeTextFile(join(dir, "magi-tools.jsonc"), JSON.stringify(config, null, 2));
    const env = {
      XDG_STATE_HOME: join(dir, "state"),
      XDG_CONFIG_HOME: join(dir, "config"),
      MAGI_TOOLS_TRUST_CONFIG: "1",
      DISPLAY: "",
    };
    await fn({
      dir,
      oidc,
      mcp,
      storeFile: join(dir, "state", "magi-tools", "oauth-sessions.json"),
      env,
      cli: (args, more = {}) => runCli(args, { cwd: dir, raw: true, env: { ...env, ...more } }),
    });
  } finally {
    await mcp.close();
    await oidc.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * On `page`, showing the authorization server's login page: sign in as {@link USER}, consent,
 * and wait for the redirect to magi-tools' loopback listener, which must say it worked.
 */
export async function completeProviderLogin(page: Page): Promise<void> {
  // oidc-provider's development interactions: a login form, then a consent form.
  await page.fill("input[name=login]", USER);
  await page.fill("input[name=password]", "any");
  await page.click("button[type=submit]");
  await page.waitForSelector("text=/Authorize|Continue|consent/i");
  await Promise.all([page.waitForURL(/\/callback\?/), page.click("button[type=submit]")]);
  assert.match(await page.textContent("body") ?? "", /Signed in to magi-tools/);
}

/** The stored tokens of `world`'s MCP server (after a sign-in). */
export async function storedSignIn(
  world: World,
): Promise<
  { tokens: { access_token: string; refresh_token: string }; client: { client_id: string } }
> {
  return JSON.parse(await Deno.readTextFile(world.storeFile)).servers[world.mcp.url];
}
