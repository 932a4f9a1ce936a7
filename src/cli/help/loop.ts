/**
 * Help texts of the tool author's loop: `call`, `init` and `inspect`.
 *
 * @module
 */

/** `magi-tools call --help`. */
export const CALL_HELP = `Usage: magi-tools call NAME ['{"json":"args"}'] [options]

Runs one tool without a backend, exactly as a client.tool.call would run it:
argument validation, the tool's deadline, its sandbox and hard kill, result
bounds and splitting (the default client.tools limits). The arguments come
from the ARGS argument, else from stdin when it is not a terminal, else {}.
stdout gets the result text (on a terminal with control characters shown
visibly, as on stderr); a process tool's own output goes to stderr.

Options:
  --tools DIR          tool directory (repeatable; default ./tools, which may be
                       missing when the config has an MCP server or OpenAPI API)
  --config FILE        the config's tool sources (default ./magi-tools.jsonc, which
                       needs approval when it starts commands or reads \${VAR}s:
                       magi-tools trust --help); --no-config ignores it,
                       --mcp-config FILE adds servers
  --start-timeout SECONDS
                       deadline of each tool source's start (an MCP server's
                       initialize and tools/list; default 60): past it the source
                       failed to start (exit 2 for a required one)
  --timeout-ms N       the call's deadline instead of the tool's timeout_ms
                       (1000-600000; the tool's own timeoutMs still applies)
  --json               print one JSON record: tool.result's fields, the text,
                       its parts (part_texts), the tool's output (log) and,
                       for a tool with an output schema, the value (structured)
  --cwd DIR            the tool's working directory (ctx.cwd)
  -h, --help           this help

Exit codes:
  0    the tool succeeded
  1    the tool answered an error (its code and text on stderr)
  2    usage error, unknown tool, bad JSON, or a tool-module error
  130  interrupted (SIGINT): the call was cancelled first
  143  stopped by SIGTERM: the call was cancelled first
`;

/** `magi-tools init --help`. */
export const INIT_HELP = `Usage: magi-tools init [DIR] [--from PATH]

Writes a minimal tools project into DIR (default: the current directory; created
when missing). Run by Deno: deno.json (start, tools, call, inspect, flags and
test tasks, none with -A), a commented magi-tools.jsonc, tools/greet.ts and
tests/greet_test.ts (which runs the tool through 'call'); deno.json imports
npm:@magi/tools@^VERSION (jsr: when this magi-tools came from JSR), so the
project runs on any machine. Run by Node.js (npx magi-tools init): a
magi-tools.jsonc, tools/greet.mjs and tests/greet.test.mjs (node --test).

Options:
  --from PATH          import the magi-tools checkout at PATH instead of the
                       registry, written relative to DIR (Deno projects only)
  -h, --help           this help

Exit codes: 0 written; 2 usage error (PATH is no checkout), or one of the files
exists (nothing is written then; the message names every existing file).
`;

/** `magi-tools inspect --help`. */
export const INSPECT_HELP =
  `Usage: magi-tools inspect [--tools DIR]... [--config FILE | --no-config]
                          [--mcp-config FILE]... [--port N] [--agent CMD] [--cwd DIR]

Starts a local web inspector on 127.0.0.1 and prints its URL (with a session
token every request must carry). In the page: every tool with its schema,
costs and permissions, a generated form to call it; a prompt box that runs
turns against the backend (fixed at start: --agent, else as for run) with a
live timeline, approvals and cancel; sessions and their history. Editing a
tool file reloads the tool set. Ctrl-C stops it. Deno only.

Options:
  --tools DIR          tool directory (repeatable; must exist; default ./tools,
                       which may be missing when the config has an MCP server or
                       OpenAPI API)
  --config FILE        the config's tool sources (default ./magi-tools.jsonc, which
                       needs approval when it starts commands or reads \${VAR}s:
                       magi-tools trust --help); --no-config ignores it,
                       --mcp-config FILE adds servers
  --port N             port, 0-65535 (default 0: a free one)
  --agent CMD          backend command line for turns (default as for run)
  --cwd DIR            working directory of the backend and the tools
  --approve RULE       approval rules of write tools in turns, as for run
                       (allow=file_ticket, deny=mcp:github; repeatable); what no
                       rule decides the page asks, unless a bare allow or deny
  --start-timeout SECONDS
                       deadline of each backend start (spawn to its initialize
                       answer) and of each tool source's start (default 60)
  -h, --help           this help

Exit codes: 130 stopped by Ctrl-C; 143 stopped by SIGTERM; 2 usage error, a port
in use, or a tool module, registry or config error.
`;
