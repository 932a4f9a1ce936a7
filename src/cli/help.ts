/**
 * Help texts of the CLI.
 *
 * @module
 */

const EXIT_CODES = `Exit codes:
  0    the turn completed (tools/demo: success)
  1    the run failed, or --timeout cancelled it
  2    usage error, or a tool module / tool registry error (names the file and reason)
  3    the backend did not start: command not found, initialize error, failed status,
       or --timeout before the turn started
  4    protocol violation, tool descriptor mismatch, the backend died or stalled after
       startup (a host.error record says which)
  130  interrupted (SIGINT)`;

const MAIN = `magi-tools — give a coding agent your own tools

Usage:
  magi-tools run [options] [PROMPT]   run one turn (prompt from stdin when omitted)
  magi-tools tools [--tools DIR]... [--json]
                                      validate and list tools with their byte costs
  magi-tools demo                     example tools against the reference backend
  magi-tools --help | --version

stdout carries NDJSON summary records only (docs/summaries.md); diagnostics and
tools' console output go to stderr. Run 'magi-tools run --help' for run options.

${EXIT_CODES}
`;

const RUN = `Usage: magi-tools run [options] [PROMPT]

Starts the agent backend, registers the tools, runs one turn, shuts down.
The prompt comes from PROMPT, else from stdin when stdin is not a terminal.

Options:
  --tools DIR          tool directory (repeatable; default ./tools)
  --agent CMD          backend command line (split shell-like); default
                       $MAGI_CODE_AGENT, else 'magi-code serve --stdio' when on PATH,
                       else this repo's reference backend (noted on stderr)
  --cwd DIR            working directory of the backend and the tools
  --session ID         open this durable session instead of creating one
  --approve MODE       deny | allow | ask (default deny); ask prompts on /dev/tty
                       and is a usage error without a terminal
  --deltas             also emit message.delta records
  --last-message FILE  write the final assistant message to FILE
  --timeout SECONDS    deadline for the whole invocation: before the turn starts it
                       fails startup (exit 3); during the turn it sends turn.cancel and
                       exits 1 once run.finished arrives (4 if it never does)
  -h, --help           this help

SIGINT: the first cancels the turn and waits for run.finished, the second kills the
backend at once; both exit 130.

${EXIT_CODES}
`;

const TOOLS = `Usage: magi-tools tools [--tools DIR]... [--json]

Loads and validates the tool modules, then lists each tool with its definition's
byte cost and the initialize frame budget left. --json prints the exact definitions
that would be sent, as one JSON array. Exit 0, or 2 naming the file and reason.
`;

const DEMO = `Usage: magi-tools demo [--deltas]

Runs the repository's example tools against the reference backend, with a loopback
fake ticket API and a temporary MC_HOME, and prints the NDJSON summaries. Exit 0.
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
    default:
      return MAIN;
  }
}
