/**
 * The `magi-tools` command: argument parsing (`args.ts`, `help.ts`), the subcommands
 * (`run_command.ts`, `tools_cmd.ts`, `demo.ts`, `browse.ts`), the host run over one backend
 * (`host_run.ts`, `turn.ts`, `approvals.ts`), starting and closing the backend
 * (`backend_start.ts`, `agent.ts`, `shutdown.ts`), signals (`stop.ts`) and exit codes
 * (`exit_codes.ts`, `failure.ts`). Thin: it wires the layers below. `main.ts` is the entry
 * (`cli.ts` at the repository root runs it).
 *
 * @module
 */

export { main } from "./main.ts";
