/**
 * The run engine: everything between parsed options and a finished turn.
 *
 * It owns a backend connection (`HostRun`: start, initialize, turn, failure,
 * stop), the agent command (`agent.ts`), the backend's early start
 * (`backend_start.ts`), approvals, the stop path and liveness probe, the tool
 * sources plan (`sources.ts`), the kernel sandbox mode, the tool-error tally,
 * `runOneTurn` (a turn as a library call) and the `connect`/`browse` records; what the
 * commands share below the CLI: their option types (`options.ts`), the prompt and
 * `--last-message` checks (`prompt.ts`, `output_file.ts`), the `deno run` flags a run needs
 * (`deno_flags.ts`, `task_flags.ts`), the `call --json` record (`call_record.ts`) and the demo
 * (`demo.ts`).
 * `src/cli/` parses argv into options and calls this layer; `batch`,
 * `report` and `inspect` build on it, never on `src/cli/`.
 *
 * @module
 */

export { runOneTurn } from "./one_turn.ts";
export type { OneTurnOptions, OneTurnResult } from "./one_turn.ts";
export { runHost } from "./host_run.ts";
