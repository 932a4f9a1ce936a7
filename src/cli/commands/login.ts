/**
 * `magi-tools login NAME` and `logout NAME`: sign in to (or out of) the HTTP
 * MCP server `NAME` of the config, an `mcpServers` entry with `oauth`
 * (`src/mcp/oauth_login.ts`, `src/mcp/login_flow.ts`). The config is loaded
 * as every command loads it (a project config needs approval first).
 *
 * `login` prints the authorization URL on stderr and opens it in a browser
 * where there is one (a display on Linux, macOS, Windows; not with
 * `--no-browser`), waits for the redirect to its loopback listener, and
 * stores the tokens in the per-user sign-in store. `logout` forgets them.
 * Exit 0 done; 1 the sign-in failed (refused, no answer within 10 minutes);
 * 2 usage or config error.
 *
 * @module
 */

import { loadFeature } from "../../sources/features.ts";
import { loadConfig } from "../../config/mod.ts";
import { isHostError, UsageError } from "../../errors/mod.ts";
import { EXIT, exitCode } from "../../run/exit_codes.ts";
import {
  currentDir,
  getEnvIfGranted,
  osName,
  spawnDetached,
  terminalText,
  writeStderrLine,
  writeStdout,
} from "../../runtime/mod.ts";
import type { LoginArgs } from "../args/login.ts";
import { LOGIN_TIMEOUT_MS, type McpLoginModule } from "../../mcp/login_api.ts";

/** Run `login` or `logout`; resolves with the exit code. */
export async function loginCommand(args: LoginArgs): Promise<number> {
  try {
    const config = await loadConfig({
      config: args.config,
      noConfig: args.noConfig,
      mcpConfigs: args.mcpConfigs,
      cwd: currentDir(),
    });
    const server = config.mcpServers.find((entry) => entry.name === args.server);
    if (server === undefined) {
      const names = config.mcpServers.map((entry) => entry.name).join(", ") || "none";
      throw new UsageError(`No mcpServers entry ${args.server} in the config (entries: ${names})`);
    }
    if (server.transport.kind !== "http" || server.transport.oauth === undefined) {
      throw new UsageError(
        `mcpServers.${args.server} has no "oauth": ${args.command} is for HTTP servers that sign in (docs/mcp.md)`,
      );
    }
    const { forgetSignIn, signIn, signInStorePath } = await loadFeature("mcp") as McpLoginModule;
    const store = signInStorePath();
    if (store === null) {
      throw new UsageError(
        "Cannot find the sign-in store: the host may not read HOME or XDG_STATE_HOME (LOCALAPPDATA on Windows)",
      );
    }
    const url = server.transport.url;
    if (args.command === "logout") {
      const had = await forgetSignIn(store, url);
      await print(
        had ? `Signed out of ${args.server} (${url})` : `Not signed in to ${args.server}`,
      );
      return EXIT.ok;
    }
    try {
      await signIn({
        server: args.server,
        serverUrl: url,
        storePath: store,
        scopes: server.transport.oauth.scopes,
        timeoutMs: LOGIN_TIMEOUT_MS,
        open: (authorizationUrl) => {
          writeStderrLine(`Open this URL in a browser to sign in to ${args.server}:`);
          writeStderrLine(`  ${authorizationUrl.href}`);
          if (!args.noBrowser) openBrowser(authorizationUrl.href);
        },
      });
    } catch (error) {
      writeStderrLine(
        `magi-tools: sign-in to ${args.server} failed: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
      return EXIT.runFailed;
    }
    await print(`Signed in to ${args.server} (${url})`);
    return EXIT.ok;
  } catch (error) {
    if (isHostError(error, "config", "usage", "feature_unavailable")) {
      writeStderrLine(`magi-tools: ${error.message}`);
      return exitCode(error.code);
    }
    throw error;
  }
}

/** Open `url` in the user's browser where there is one; never fails (the URL is printed). */
function openBrowser(url: string): void {
  const os = osName();
  const graphical = os !== "linux" ||
    getEnvIfGranted("DISPLAY") !== undefined || getEnvIfGranted("WAYLAND_DISPLAY") !== undefined;
  if (!graphical) return;
  const [command, ...args] = os === "darwin"
    ? ["open", url]
    : os === "windows"
    ? ["cmd", "/c", "start", "", url]
    : ["xdg-open", url];
  try {
    spawnDetached(command!, args);
  } catch {
    // No opener, or no permission to run it: the printed URL is the way.
  }
}

async function print(line: string): Promise<void> {
  await writeStdout(new TextEncoder().encode(terminalText(line) + "\n"));
}
