/**
 * Help text of `login` and `logout`.
 *
 * @module
 */

/** `magi-tools login --help` (and `logout`). */
export const LOGIN_HELP = `Usage: magi-tools login NAME [--no-browser] [--config FILE]
       magi-tools logout NAME [--config FILE]

Sign in to (or out of) the HTTP MCP server NAME of the config: an mcpServers
entry with a url and "oauth": {} (docs/mcp.md: Signing in). login finds the
server's authorization server (its protected resource metadata), registers
magi-tools there, and runs the authorization code flow with PKCE: it prints the
authorization URL on stderr, opens it in your browser where there is one, and
waits (10 minutes at most) for the redirect to a listener on 127.0.0.1. The
tokens go to oauth-sessions.json in the per-user state directory
($XDG_STATE_HOME/magi-tools or ~/.local/state/magi-tools; macOS
~/Library/Application Support/magi-tools/state; Windows
%LOCALAPPDATA%\\magi-tools\\state), written 0600; they are never printed and
never in a record. run, call, batch, mcp and inspect then send the stored
token, refreshed when it is about to expire; without a sign-in, or when the
refresh is refused, the server fails to start (exit 2) with "run
magi-tools login NAME". logout forgets the server's tokens.

Options:
  --no-browser                     print the URL only
  --config FILE, --no-config, --mcp-config FILE
                                   the config, as for run
  -h, --help                       this help

Exit codes: 0 done; 1 the sign-in failed (refused, a wrong state, no answer in
time); 2 usage error, NAME not an HTTP server with oauth, or a config error.
`;
