/**
 * Help text of `trust`.
 *
 * @module
 */

/** `magi-tools trust --help`. */
export const TRUST_HELP = `Usage: magi-tools trust [FILE]
       magi-tools trust --list
       magi-tools trust --revoke [FILE]

A magi-tools.jsonc found in the working directory is the project's code: when it
starts a command (a stdio MCP server) or reads an environment variable (\${VAR}
in an MCP server's command, args, env, cwd, url or headers; an OpenAPI auth
valueFromEnv; an MCP server's or OpenAPI entry's clientCredentials variables),
run, tools, call, mcp, inspect and batch refuse it (exit 2) until you approve
it, and nothing from it starts or expands before that. Approve it with any of:
  magi-tools trust [FILE]      record FILE's path and the SHA-256 of its content
                               (FILE default ./magi-tools.jsonc), and where each
                               secret goes; a changed file needs trust again
  --config FILE                name the file yourself for one command
  MAGI_TOOLS_TRUST_CONFIG=1    approve every project config (CI; the host must
                               be allowed to read the variable)

trust prints where each secret goes and what decides it. An OpenAPI auth without
a baseUrl sends its secret to the document's first servers entry: trust records
that base URL, and a start that finds another one is refused (exit 2, "changed
since you trusted it") until you trust again; so is the token URL of OpenAPI
clientCredentials read from the document's securitySchemes; --config and
MAGI_TOOLS_TRUST_CONFIG=1 take the document as it is.

The trust store is trusted-configs.json in the per-user config directory
($XDG_CONFIG_HOME/magi-tools or ~/.config/magi-tools; macOS ~/Library/Application
Support/magi-tools; Windows %APPDATA%\\magi-tools), written 0600. A config without
commands or variables needs no approval. docs/mcp.md: Project configuration is code.

Options:
  --list               the trusted configs: state (ok, changed, missing), when, path,
                       and the recorded destination of each OpenAPI secret
  --revoke             forget FILE's approval
  -h, --help           this help

Exit codes: 0 done; 2 usage error, FILE missing or not JSONC, an OpenAPI secret
whose destination cannot be found, or the trust store cannot be found, read or
written.
`;
