/**
 * The run engine: everything between parsed options and a finished turn.
 *
 * | File                              | What                                                      |
 * | --------------------------------- | --------------------------------------------------------- |
 * | `backend_run.ts`                  | `BackendRun`: a backend connection's phases; `runBackend` |
 * | `run_options.ts`                  | its options: a connection's, a turn's, `run`'s            |
 * | `run_start.ts`                    | starting it (backend, registry, kernel); `host.ready`     |
 * | `tool_wiring.ts`                  | executor and tool-call session sharing one record sink    |
 * | `backend_turn.ts`, `turn.ts`      | one turn: session, admission, watchdog, events            |
 * | `exit_policy.ts`                  | the turn's exit code, reason, `cancelled_by` (pure)       |
 * | `turn_scope.ts`                   | the phases around a turn, for `runBackend` and `batch`    |
 * | `load_registry.ts`                | the tools loaded into a registry                          |
 * | `stop.ts`, `liveness.ts`          | stop signals, the stall probe                             |
 * | `shutdown.ts`, `backend_start.ts` | closing the backend, its early start                      |
 * | `agent.ts`, `approvals.ts`        | the agent command, approvals                              |
 * | `sources.ts`, `kernel_sandbox.ts` | tool sources planning, kernel sandbox mode                |
 * | `tool_errors.ts`                  | the `--fail-on-tool-error` tally                          |
 * | `one_turn.ts`                     | `runOneTurn`: a turn as a library call                    |
 * | `connect.ts`, `browse_records.ts` | the `connect` and `browse` records                        |
 * | `failure.ts`, `exit_codes.ts`, …  | failures, exit codes (`exitCode()`), their messages       |
 * | `command_options.ts`              | option types the commands share (config, `--tools`)       |
 * | `prompt.ts`                       | the prompt check                                          |
 * | `call_record.ts`                  | the `call --json` record                                  |
 *
 * `src/cli/` parses argv into options and calls this layer; `batch`, `report` and `inspect`
 * build on it, never on `src/cli/`.
 *
 * @module
 */

export { runOneTurn } from "./one_turn.ts";
export type { OneTurnOptions, OneTurnResult } from "./one_turn.ts";
export { runBackend } from "./backend_run.ts";
