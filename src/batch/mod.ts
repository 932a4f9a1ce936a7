/**
 * `batch`: many turns from a JSONL file, resumable and sharded (docs/batch.md).
 *
 * Parts: `options.ts` (what it runs with; `src/cli/args/batch.ts` parses the flags),
 * `input.ts` (the whole input checked before anything runs), `shard.ts` (`--shard K/N` by a stable hash of the id), `store.ts` and `index_entry.ts`
 * (the output folder: atomic item files, then the index line; repaired after a kill),
 * `run.ts` (slots that run many turns on one `BackendRun` each), `progress.ts` (the stderr
 * progress line) and `command.ts` (the command).
 *
 * @module
 */

export { batchCommand, type BatchSummary } from "./command.ts";
export type { BatchOptions } from "./options.ts";
