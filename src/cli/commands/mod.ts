/**
 * The commands, one file each (`run.ts`, `demo.ts`, `tools.ts`, `mcp.ts`, `call.ts`, `init.ts`,
 * `trust.ts`, `browse.ts` for `sessions`, `history`, `models` and `select`): each takes its
 * parsed options (`../args/`), calls the layers below and prints; `batch`, `report` and
 * `inspect` are their layers' own commands (`src/batch/command.ts`, `src/report/command.ts`,
 * `src/inspect/mod.ts`). `main.ts` imports each file only when its command runs, so nothing
 * here is re-exported, and a command needs no lazy import of its own to stay off the others' path
 * (`demo.ts` holds the demo's run too). Files starting with `_` are the commands' own helpers:
 * stdout and the transcript (`_output.ts`), `--last-message` (`_output_file.ts`) and the
 * `deno run` flags a run needs (`_deno_flags.ts`, `_task_flags.ts`).
 *
 * @module
 */

export {};
