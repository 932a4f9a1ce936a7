/**
 * The benchmark suite: `deno task bench` (`deno run -A bench/main.ts`).
 *
 * Runs every measurement in both CPU placements (`taskset -c 0` and
 * `taskset -c 0,1`), prints one table on stdout and writes it, with the
 * machine, versions and date, to `docs/benchmarks.md`.
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
import { buildRows, renderDocument, renderTable } from "./report.ts";
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
  } else {
    if (!(await hasTaskset())) {
      console.error("bench: taskset (util-linux) is required to place processes on CPUs");
      Deno.exit(2);
    }
    const sizes = values.quick ? QUICK_SIZES : FULL_SIZES;
    const machine = await machineInfo();
    const started = performance.now();
    const results: PlacementResults[] = [];
    for (const placement of PLACEMENTS) {
      results.push(await runPlacement(placement, sizes, (line) => console.error(`bench: ${line}`)));
    }
    run = {
      machine,
      loadAfter: readLoadavg(),
      durationS: (performance.now() - started) / 1000,
      results,
    };
    if (values.save !== undefined) await Deno.writeTextFile(values.save, JSON.stringify(run));
  }
  const { machine, loadAfter, results } = run;
  const rows = buildRows(results);
  console.log(renderTable(rows));
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
