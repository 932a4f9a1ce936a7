/**
 * The benchmark suite: `deno task bench` (`deno run -A bench/main.ts`).
 *
 * Runs every measurement in both CPU placements (`taskset -c 0` and
 * `taskset -c 0,1`), then the first run of `demo` (`scripts/first_run.ts`),
 * prints one table with issue 27's targets (PASS/MISS, each judged against
 * the faster of the two MCP SDK columns; CPU per call against the leaner
 * SDK server) and their summary on stdout, and writes them, with the
 * machine, versions and date, to `docs/benchmarks.md`.
 * The Node.js SDK column's packages (`bench/node/`) are installed with
 * `npm ci` on first use; a missing `node`, a failed install or an SDK
 * version other than the Deno column's stops the suite (exit 2).
 *
 * Flags: `--quick` (small sizes: checks the plumbing, numbers meaningless,
 * writes nothing unless `--out` is given), `--out <file>` (default
 * `docs/benchmarks.md`), `--no-write`, `--quiet-load <n>` (the 1-minute
 * load average at or below which the run counts as taken on a quiet
 * machine; default 0.5), `--save <file>` (also write the raw results and
 * machine facts as JSON), `--render <file>` (measure nothing: rebuild the
 * table and document from a `--save` file, e.g. after editing
 * `bench/notes.md`).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { type MachineInfo, machineInfo, readLoadavg } from "./machine.ts";
import { type FirstRunResult, measureFirstRun } from "./first_run.ts";
import { checkNodeVersion, ensureNodeSdk, NodeSdkError } from "./node_sdk.ts";
import { buildRows, renderDocument, renderSummary, renderTable } from "./report.ts";
import {
  FULL_SIZES,
  type PlacementResults,
  PLACEMENTS,
  QUICK_SIZES,
  runPlacement,
} from "./suite.ts";

/** Raw results of one suite run (`--save` / `--render`). */
interface SavedRun {
  machine: MachineInfo;
  loadAfter: [number, number, number];
  durationS: number;
  results: PlacementResults[];
  /** Absent in runs saved before the first-run row existed. */
  firstRun?: FirstRunResult;
}

/** A run saved before the Node.js column existed has no Node.js results: show them as n/a. */
function withDefaults(results: PlacementResults[]): PlacementResults[] {
  return results.map((r) => ({
    ...r,
    mcpNode: r.mcpNode ?? {},
    mcpNodeReadyMs: r.mcpNodeReadyMs ?? {},
  }));
}

async function hasTaskset(): Promise<boolean> {
  try {
    return (await new Deno.Command("taskset", { args: ["-V"], stdout: "null", stderr: "null" })
      .output()).success;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      quick: { type: "boolean", default: false },
      out: { type: "string" },
      "no-write": { type: "boolean", default: false },
      "quiet-load": { type: "string", default: "0.5" },
      save: { type: "string" },
      render: { type: "string" },
    },
  });
  let run: SavedRun;
  if (values.render !== undefined) {
    run = JSON.parse(await Deno.readTextFile(values.render)) as SavedRun;
    run.results = withDefaults(run.results);
  } else {
    if (!(await hasTaskset())) {
      console.error("bench: taskset (util-linux) is required to place processes on CPUs");
      Deno.exit(2);
    }
    const sizes = values.quick ? QUICK_SIZES : FULL_SIZES;
    const machine = await machineInfo();
    const progress = (line: string) => console.error(`bench: ${line}`);
    try {
      checkNodeVersion(machine.node);
      machine.mcpSdkNode = await ensureNodeSdk({ denoSdkVersion: machine.mcpSdk, progress });
    } catch (error) {
      if (!(error instanceof NodeSdkError)) throw error;
      console.error(`bench: ${error.message}`);
      Deno.exit(2);
    }
    const started = performance.now();
    const results: PlacementResults[] = [];
    for (const placement of PLACEMENTS) {
      results.push(await runPlacement(placement, sizes, progress));
    }
    progress("first run of demo with an empty Deno cache (scripts/first_run.ts)");
    const firstRun = await measureFirstRun();
    run = {
      machine,
      loadAfter: readLoadavg(),
      durationS: (performance.now() - started) / 1000,
      results,
      firstRun,
    };
    if (values.save !== undefined) await Deno.writeTextFile(values.save, JSON.stringify(run));
  }
  const { machine, loadAfter, results } = run;
  const rows = buildRows(results, { firstRun: run.firstRun });
  console.log(renderTable(rows));
  console.log(renderSummary(rows));
  const out = values.out ?? (values.quick ? undefined : "docs/benchmarks.md");
  if (out !== undefined && !values["no-write"]) {
    const notes = await Deno.readTextFile(new URL("./notes.md", import.meta.url));
    const quietLoad = Number(values["quiet-load"]);
    const document = renderDocument({
      machine,
      loadAfter,
      quiet: machine.loadavg[0] <= quietLoad && loadAfter[0] <= quietLoad + 2,
      durationS: run.durationS,
      rows,
      results,
      notes,
    });
    await Deno.writeTextFile(out, document);
    console.error(`bench: wrote ${out}`);
  }
}
