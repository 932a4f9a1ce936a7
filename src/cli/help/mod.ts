/**
 * Help texts of the CLI.
 *
 * @module
 */

import { BATCH_HELP, REPORT_HELP } from "./batch.ts";

import { CALL_HELP, INIT_HELP, INSPECT_HELP } from "./loop.ts";
import { TRUST_HELP } from "./trust.ts";
import { LOGIN_HELP } from "./login.ts";

const EXIT_CODES = `Exit codes:
  0    the turn completed (tools/demo: success)
  1    the run failed, --timeout cancelled it, --last-message could not be written,
       the summaries could not be written to stdout (the turn is then cancelled; a
       reader that closed stdout is exit 141 instead), or
       --fail-on-tool-error and a tool call ended in error or was denied
       (turn.finished exit_reason says which when the turn itself completed)
  2    usage error, or a tool module / tool registry / config error (names the file
       and reason)
  3    the backend did not start: none named and magi-code not on PATH, command not
       found, initialize error, failed status, no initialize answer within
       --start-timeout, or --timeout before the turn started
  4    protocol violation, tool descriptor mismatch, the backend died or stalled after
       startup (a host.error record says which)
  130  interrupted (SIGINT)
  141  stdout was closed by its reader (run ... | head -1): the turn is stopped
       quietly, as a process ended by SIGPIPE
  143  stopped by SIGTERM (gracefully, as on SIGINT)`;

const MAIN = `magi-tools — give a coding agent your own tools

Usage:
  magi-tools run [options] [PROMPT]   run one turn (prompt from stdin when omitted)
  magi-tools tools [--tools DIR]... [--json | --permissions-json | --deno-flags]
                                      validate and list tools with their byte costs
                                      and permissions
  magi-tools mcp [--tools DIR]... [--http PORT] [--approve MODE]
                                      serve the tools as an MCP server (docs/mcp.md)
  magi-tools demo [--format F]        example tools against the reference backend
  magi-tools call NAME [ARGS]         run one tool without a backend (ARGS: JSON)
  magi-tools init [DIR] [--from PATH]
                                      start a tools project (tools/, a test, deno.json)
  magi-tools trust [FILE] | --list | --revoke [FILE]
                                      approve a project config that starts commands
                                      or reads \${VAR}s (default ./magi-tools.jsonc)
  magi-tools login NAME | logout NAME sign in to (out of) an HTTP MCP server with oauth
  magi-tools inspect [--port N]       a local web inspector: tools, forms, live turns
  magi-tools sessions [--table]       list this workspace's saved sessions
  magi-tools history SESSION          print a session's whole history
  magi-tools models [--table]         list the cached models with availability and efforts
  magi-tools select PROVIDER MODEL [--effort E] --session ID
                                      save a model selection in a session
  magi-tools batch INPUT.jsonl --out DIR [--jobs N] [--shard K/N] [--retry-failed]
                                      one turn per input line, resumable
  magi-tools report DIR... [--markdown FILE] [--html FILE] [--item ID]
                                      Markdown/HTML report of batch output folders
  magi-tools help [COMMAND] | --help | --version

stdout carries NDJSON summary records only (docs/summaries.md); diagnostics and
tools' console output go to stderr. With OTEL_DENO=true every turn, tool call,
approval and OpenAPI/MCP request is traced over OTLP (docs/telemetry.md).
Run 'magi-tools COMMAND --help' for a command's options and exit codes
(docs/cli.md); those of run and demo:

${EXIT_CODES}
`;

const RUN = `Usage: magi-tools run [options] [PROMPT]

Starts the agent backend, registers the tools, runs one turn, shuts down.
The prompt comes from PROMPT, else from stdin when stdin is not a terminal.

Options:
  --tools DIR          tool directory (repeatable; default ./tools, which may be
                       missing when the config has an MCP server or OpenAPI API)
  --agent CMD          backend command line (split shell-like); default
                       $MAGI_CODE_AGENT, else 'magi-code serve --stdio' when on PATH,
                       else exit 3; 'reference' is the scripted reference backend
  --cwd DIR            working directory of the backend and the tools
  --session ID         open this durable session instead of creating one (IDs are
                       1-64 of A-Z a-z 0-9 _ -; sessions belong to the working
                       directory: list them with 'magi-tools sessions')
  --approve MODE       deny | allow | ask (default deny); ask puts each write tool call,
                       with every argument, to you when it arrives: on stderr, reading
                       the answer from stdin when both are a terminal (else /dev/tty,
                       which Deno opens only with --allow-all), and is a usage error
                       saying why when it cannot ask. Repeatable, as rules per tool:
                       --approve allow=file_ticket --approve deny (DECISION=TOOL,
                       =SOURCE or =SOURCE/TOOL; globs; first match wins; a bare
                       decision is the default; before the config's approvals)
  --deltas             also emit message.delta records
  --format FORMAT      text (a readable transcript) | ndjson; default text when stdout
                       is a terminal, else ndjson
  --last-message FILE  write the final assistant message to FILE (checked before
                       the turn: an unwritable FILE is a usage error)
  --timeout SECONDS    deadline for the whole invocation: before the turn starts it
                       fails startup (exit 3); during the turn it sends turn.cancel and
                       exits 1 once run.finished arrives (4 if it never does)
  --start-timeout SECONDS
                       deadline of the backend's start, spawn to its initialize answer
                       (default 60): past it host.error startup_failed, the backend is
                       stopped and reaped, exit 3; also each tool source's start
  --config FILE        project config (default ./magi-tools.jsonc when it exists):
                       MCP servers and OpenAPI documents whose tools are added
                       (docs/mcp.md, docs/openapi.md); a ./magi-tools.jsonc that
                       starts commands or reads \${VAR}s needs approval first
                       (magi-tools trust --help)
  --no-config          do not read ./magi-tools.jsonc
  --mcp-config FILE    add the mcpServers of a Claude Desktop / Claude Code / Cursor
                       style JSON file (repeatable)
  --stall-timeout SECONDS
                       after this long without output from the backend (default 60;
                       0 disables), probe it with status; unanswered within
                       min(SECONDS, 10) it is stalled: host.error backend_stalled, exit 4
  --fail-on-tool-error exit 1 when any tool call ended in error or was denied
                       (turn.finished exit_reason "tool_errors"), for CI jobs
  --record-args        put each call's arguments, configured secrets redacted, on
                       its tool.call record, and a typed tool's value on its tool.result
                       (also: "records": {"arguments": true})
  --require-kernel-sandbox
                       exit 2 at startup unless every tool runs at kernel+deno (its own
                       process under Landlock, Linux); the message names the others and why
  --no-kernel-sandbox  process-isolated tools run with Deno's permission checks only
                       (level deno); for measuring and debugging
  -h, --help           this help

SIGINT: the first cancels the turn and waits for run.finished, the second kills the
backend at once; both exit 130. SIGINTs within 500 ms of the first (a terminal's Ctrl-C
also forwarded by deno task or npx) count as one. SIGTERM (CI's timeout, docker stop)
stops the same way and exits 143.

${EXIT_CODES}
`;

const TOOLS = `Usage: magi-tools tools [--tools DIR]... [--config FILE | --no-config]
                        [--mcp-config FILE]...
                        [--json | --permissions-json | --deno-flags [--agent CMD]
                         | --task-flags]

Loads and validates the tool modules and the config's tool sources, then lists
each tool (tab-separated: name, effect, definition bytes, file or source,
tool_id, isolation and permissions, enforcement level: kernel+deno, deno or
none) and the initialize frame budget left.

Options:
  --tools DIR          tool directory (repeatable; default ./tools, which may be
                       missing when the config has an MCP server or OpenAPI API)
  --config FILE        project config (default ./magi-tools.jsonc when it exists):
                       MCP servers and OpenAPI documents whose tools are added
                       (docs/mcp.md, docs/openapi.md); a ./magi-tools.jsonc that
                       starts commands or reads \${VAR}s needs approval first
                       (magi-tools trust --help)
  --no-config          do not read ./magi-tools.jsonc
  --mcp-config FILE    add the mcpServers of a Claude Desktop / Claude Code / Cursor
                       style JSON file (repeatable)
  --json               the exact definitions run would send, as one JSON array
  --permissions-json   each tool's isolation, memory cap, permissions and enforcement
                       level (sandbox) as JSON
  --deno-flags         the least 'deno run' permission flags run needs for these
                       tools and the backend, on one line:
                         deno run $(magi-tools tools --deno-flags) mod.ts run --no-config ...
                       (add --allow-read=DIR for run --cwd, --allow-write=FILE
                       for --last-message, --allow-read of a config file)
  --agent CMD          with --deno-flags: the backend command run will use
  --task-flags         the 'deno run' flags of an init project's tasks: the host's
                       grants plus the environment variables and hosts the config
                       names (\${VAR}, OpenAPI auth, HTTP MCP servers, spec URLs);
                       loads no tools and never fails (a bad config is reported
                       by the command the task runs)
  -h, --help           this help

Exit codes: 0 listed; 2 usage, config, tool module or registry error (naming the
file and reason).
`;

const DEMO = `Usage: magi-tools demo [--deltas] [--format text|ndjson]

Runs the repository's example tools against the reference backend, with a loopback
fake ticket API and a temporary MC_HOME: a transcript on a terminal, the NDJSON
summaries everywhere else (as run does).

Options:
  --deltas             also emit message.delta records
  --format FORMAT      text (the transcript) or ndjson; default text when stdout
                       is a terminal, else ndjson
  -h, --help           this help

Exit codes: as for run (0 when the turn completed).
`;

const BROWSE_EXIT = `Exit codes:
  0    success
  1    the backend answered an error (a host.error record names it, e.g. session_missing,
       selection_invalid, or stale_revision when the listing changed while paging)
  2    usage error
  3    the backend did not start (command not found, initialize error)
  4    protocol violation, or the backend died`;

const BROWSE_OPTIONS = `  --agent CMD          backend command line (as for run)
  --cwd DIR            working directory of the backend (sessions are per workspace)
  -h, --help           this help`;

const SESSIONS = `Usage: magi-tools sessions [--table] [--agent CMD] [--cwd DIR]

Lists the workspace's saved sessions in ascending ID order (session.list, every page of
one snapshot): one session.listed record each, then sessions.done; --table prints a
tab-separated table instead (SESSION, ELIGIBILITY, UPDATED, TITLE).

Options:
  --table              a readable table instead of NDJSON
${BROWSE_OPTIONS}

${BROWSE_EXIT}
`;

const HISTORY = `Usage: magi-tools history SESSION [--agent CMD] [--cwd DIR]

Opens exactly SESSION and prints its whole history (history.page, every page): one
history.entry record per message (parts joined), then history.done.

Options:
${BROWSE_OPTIONS}

${BROWSE_EXIT}
`;

const MODELS = `Usage: magi-tools models [--table] [--session ID] [--agent CMD] [--cwd DIR]

Lists the backend's cached model choices (model.catalog, every page) with availability
and effort support: one model.choice record each, then models.done with the current
selection. --session ID opens that session first, so its saved selection is marked.

Options:
  --table              a readable table instead of NDJSON
  --session ID         mark this session's saved selection
${BROWSE_OPTIONS}

${BROWSE_EXIT}
`;

const SELECT =
  `Usage: magi-tools select PROVIDER MODEL [--effort E] --session ID [--agent CMD] [--cwd DIR]

Opens session ID and saves the selection in it (selection.set): later 'run --session ID'
turns use it. Prints one selection record.

Options:
  --session ID         the session (required)
  --effort E           default | low | medium | high | xhigh | max; omitted keeps the
                       session's requested effort ('default' resets it)
${BROWSE_OPTIONS}

${BROWSE_EXIT}
`;

const MCP = `Usage: magi-tools mcp [--tools DIR]... [--config FILE | --no-config]
                      [--mcp-config FILE]... [--http PORT [--token TOKEN]
                      [--max-sessions N] [--session-idle-timeout SECONDS]]
                      [--approve deny|allow|ask] [--approve-timeout SECONDS]
                      [--watch] [--max-result-bytes N]
                      [--overflow error|truncate|spill]

Serves every tool run would register (tool modules and the config's sources)
as an MCP server: over stdio (stdout carries MCP frames only), or with --http as
Streamable HTTP at http://127.0.0.1:PORT/mcp (loopback only, Host/Origin checked,
every request needs Authorization: Bearer <token>).
Calls run through the same executor as run: argument validation, deadlines, the
per-tool sandbox, result bounds. Stops at stdin EOF (stdio), SIGINT or SIGTERM.
A call whose client is gone is cancelled: stdin ended (after 1 s), the HTTP
connection of the call dropped, or its session ended. No client holds more
than 3 of the 4 call slots over HTTP.

Options:
  --tools DIR          tool directory (repeatable; default ./tools, which may be
                       missing when the config has an MCP server or OpenAPI API)
  --config FILE        project config (default ./magi-tools.jsonc when it exists):
                       MCP servers and OpenAPI documents whose tools are added
                       (docs/mcp.md, docs/openapi.md); a ./magi-tools.jsonc that
                       starts commands or reads \${VAR}s needs approval first
                       (magi-tools trust --help)
  --no-config          do not read ./magi-tools.jsonc
  --mcp-config FILE    add the mcpServers of a Claude Desktop / Claude Code / Cursor
                       style JSON file (repeatable)
  --http PORT          serve Streamable HTTP on 127.0.0.1:PORT instead of stdio
  --token TOKEN        the bearer token of --http (16-512 characters); default
                       \$MAGI_TOOLS_MCP_TOKEN, else a new one, printed on stderr and
                       written 0600 to <state dir>/mcp/http-PORT.token
  --max-sessions N     at most N HTTP sessions (default 64, up to 4096); when
                       full, the session idle the longest is closed, and when
                       all are in use a new client gets 503 with Retry-After
  --session-idle-timeout SECONDS
                       close an HTTP session idle this long (no request or
                       stream open; default 1800, 0: never)
  --approve MODE       write tools: ask (default: the user approves each call
                       through the client's MCP elicitation; a client without it
                       gets a tool error), allow, or deny. Read tools always run.
                       Repeatable, as rules per tool (as for run): allow=TOOL ...
  --approve-timeout SECONDS
                       how long ask waits for an answer (default 120); no
                       answer: the tool does not run
  --start-timeout SECONDS
                       deadline of each tool source's start (an MCP server's
                       initialize and tools/list; default 60): past it the source
                       failed to start (exit 2 for a required one)
  --watch              reload when a tool directory or the config changes, and
                       when an MCP server sends tools/list_changed; clients get
                       notifications/tools/list_changed. A broken edit keeps the
                       old set (the error on stderr); a config edit is approved
                       again like at startup. Default off
  --max-result-bytes N the result bound, UTF-8 bytes (1024 to 1048576), of tools
                       that declare no maxResultBytes (default 1048576). 80000
                       keeps a result under Claude Code's 25,000-token cap
  --overflow POLICY    what a result over the bound becomes, for tools that
                       declare no overflow: error (default: result_too_large),
                       truncate (head and tail with a marker saying what was
                       cut) or spill (the whole result in a file under
                       ./.magi-tools/results, its name and head sent)
  -h, --help           this help

Exit codes: 0 stopped (stdin EOF or SIGINT); 143 stopped by SIGTERM; 2 usage,
config, tool or registry error (a required source that did not start within
--start-timeout included); 3 the port is taken.
`;

/** The help text for `topic` (a subcommand) or the main help. */
export function helpText(topic: string | undefined): string {
  switch (topic) {
    case "run":
      return RUN;
    case "tools":
      return TOOLS;
    case "demo":
      return DEMO;
    case "mcp":
      return MCP;
    case "sessions":
      return SESSIONS;
    case "history":
      return HISTORY;
    case "models":
      return MODELS;
    case "select":
      return SELECT;
    case "batch":
      return BATCH_HELP;
    case "report":
      return REPORT_HELP;
    case "call":
      return CALL_HELP;
    case "init":
      return INIT_HELP;
    case "inspect":
      return INSPECT_HELP;
    case "trust":
      return TRUST_HELP;
    case "login":
    case "logout":
      return LOGIN_HELP;
    default:
      return MAIN;
  }
}
