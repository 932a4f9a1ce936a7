/**
 * The credential of `magi-tools mcp --http`: the bearer token every request must carry.
 *
 * It comes from `--token TOKEN`, else the environment variable `MAGI_TOOLS_MCP_TOKEN` (read only
 * when the process may read it), else a new random one (`newToken`, shared with `inspect`). A
 * generated token is printed once on stderr with the URL and written, mode `0600`, to
 * `<state dir>/mcp/http-<port>.token` (`userDir("state")`, never the project), removed again
 * when the server stops; a given token is neither printed nor written.
 *
 * @module
 */

import { join } from "node:path";
import { getEnvIfGranted, removeAll, userDir, writePrivateTextFile } from "../runtime/mod.ts";
import { newToken } from "../security/token.ts";
import { HostError } from "../errors/mod.ts";

/** The environment variable `mcp --http` takes its token from when `--token` is not given. */
export const MCP_TOKEN_ENV = "MAGI_TOOLS_MCP_TOKEN";

/**
 * A usable bearer token: 16 to 512 characters of the RFC 6750 `b64token` alphabet
 * (`A-Z a-z 0-9 - . _ ~ + /`, then `=` padding); else throws a `usage` HostError, `what` naming where
 * it came from.
 */
export function checkToken(token: string, what: string): string {
  if (!/^[A-Za-z0-9._~+/-]+=*$/.test(token) || token.length < 16 || token.length > 512) {
    throw new HostError(
      "usage",
      `${what} must be 16 to 512 characters of A-Z a-z 0-9 - . _ ~ + / (then = padding)`,
    );
  }
  return token;
}

/** Where the token came from. */
export type TokenSource = "flag" | "env" | "generated";

/** The server's token. */
export interface McpCredential {
  /** The bearer token. */
  readonly token: string;
  /** `--token`, the environment variable, or generated. */
  readonly source: TokenSource;
}

/**
 * The token of `--token` (`flag`), else of {@link MCP_TOKEN_ENV}, else a new one; a bad token
 * in the variable is a `usage` HostError naming it.
 */
export function mcpCredential(flag: string | undefined): McpCredential {
  if (flag !== undefined) return { token: flag, source: "flag" };
  const env = getEnvIfGranted(MCP_TOKEN_ENV);
  if (env !== undefined && env !== "") {
    return { token: checkToken(env, `Environment variable ${MCP_TOKEN_ENV}`), source: "env" };
  }
  return { token: newToken(), source: "generated" };
}

/** The token file of a server on `port`, or null when the state directory is unknown. */
export function tokenFilePath(port: number): string | null {
  const state = userDir("state");
  return state === null ? null : join(state, "mcp", `http-${port}.token`);
}

/** What {@link announceToken} printed and how to undo it. */
export interface Announced {
  /** The stderr line about the token (no trailing newline). */
  readonly line: string;
  /** Remove the token file it wrote (nothing when it wrote none). */
  readonly remove: () => Promise<void>;
}

/**
 * Write a generated token to its file and return the stderr line that names it; for a given
 * token, the line that says which one is used.
 */
export async function announceToken(credential: McpCredential, port: number): Promise<Announced> {
  const header = "send the header Authorization: Bearer";
  if (credential.source !== "generated") {
    const from = credential.source === "flag" ? "--token" : MCP_TOKEN_ENV;
    return { line: `${header} <the token of ${from}> with every request`, remove: async () => {} };
  }
  const path = tokenFilePath(port);
  const line = `${header} ${credential.token} with every request`;
  if (path === null) {
    return {
      line: `${line} (token not written to a file: the per-user state directory is unknown; ` +
        `it needs read access to HOME or XDG_STATE_HOME)`,
      remove: async () => {},
    };
  }
  try {
    await writePrivateTextFile(path, `${credential.token}\n`);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { line: `${line} (token not written to ${path}: ${why})`, remove: async () => {} };
  }
  return {
    line: `${line} (token also in ${path}, mode 0600, removed at stop)`,
    remove: () => removeAll(path),
  };
}
