/**
 * The run engine: everything between parsed options and a finished turn.
 *
 * It owns a backend connection (`HostRun`: start, initialize, turn, failure,
 * stop), the agent command (`agent.ts`), the backend's early start
 * (`backend_start.ts`), approvals, the stop path and liveness probe, the tool
 * sources plan (`sources.ts`), the kernel sandbox mode, the tool-error tally,
 * `runOneTurn` (a turn as a library call) and the `connect`/`browse` records.
 * `src/cli/` parses argv into options and calls this layer; `batch`,
 * `report` and `inspect` build on it, never on `src/cli/`.
 *
 * @module
 */

export { runOneTurn } from "./one_turn.ts";
export type { OneTurnOptions, OneTurnResult } from "./one_turn.ts";
export { runHost } from "./host_run.ts";
