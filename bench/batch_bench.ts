/**
 * The batch benchmark row (`deno task bench:batch`): N scripted-model items
 * (the reference backend's default planner) with two tool calls each, run as
 * `batch --jobs J` against a shell loop of `run` (one CLI, one backend and one
 * tool process start per item), in the same run on the same machine. Reports
 * items/s and total CPU (user + system of the command and all its children,
 * from GNU time) and the ratio; target ≥ 3x the loop's items/s.
 *
 * Flags: `--items N` (default 200), `--jobs J` (default 4), `--json FILE`
 * (also write the results as JSON).
 *
 * @module
 */

import { parseArgs } from "node:util";

const ROOT = new URL("../", import.meta.url).pathname;
const TOOLS = `${ROOT}bench/batch_fixtures/tools`;
const REFERENCE = `${Deno.execPath()} run -A ${ROOT}src/reference_backend/main.ts serve --stdio`;

/** One measured command. */
interface Measured {
  /** Wall time, s. */
  wallS: number;
  /** User + system CPU of the command and its children, s. */
  cpuS: number;
  /** Items per second. */
  itemsPerS: number;
}

/** Run `args` under GNU time; throws when it fails. */
async function timed(args: string[], env: Record<string, string>, items: number) {
  const output = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "TIME %e %U %S", ...args],
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`Failed (${output.code}): ${args.join(" ")}\n${stderr}`);
  const match = /TIME ([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
  if (match === null) throw new Error(`No timing in: ${stderr.slice(-500)}`);
  const wallS = Number(match[1]);
  const measured: Measured = {
    wallS,
    cpuS: Number(match[2]) + Number(match[3]),
    itemsPerS: items / wallS,
  };
  return { measured, stdout: new TextDecoder().decode(output.stdout) };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { items: { type: "string" }, jobs: { type: "string" }, json: { type: "string" } },
  });
  const items = Number(values.items ?? 200);
  const jobs = Number(values.jobs ?? 4);
  const dir = await Deno.makeTempDir({ prefix: "magi-batch-bench-" });
  try {
    const prompts = Array.from(
      { length: items },
      (_, i) => `Ticket ${i}: use lookup {"key":"k${i}"} then classify {"text":"ticket ${i}"}`,
    );
    await Deno.writeTextFile(
      `${dir}/input.jsonl`,
      prompts.map((prompt, i) => JSON.stringify({ id: `t${i}`, prompt })).join("\n") + "\n",
    );
    await Deno.writeTextFile(`${dir}/prompts.txt`, prompts.join("\n") + "\n");
    const env = { NO_COLOR: "1", MC_HOME: `${dir}/home`, MAGI_CODE_AGENT: REFERENCE };
    const deno = Deno.execPath();
    const batch = await timed(
      [
        deno,
        "run",
        "-A",
        "cli.ts",
        "batch",
        `${dir}/input.jsonl`,
        "--out",
        `${dir}/out`,
        "--jobs",
        String(jobs),
        "--tools",
        TOOLS,
        "--progress",
        "never",
      ],
      env,
      items,
    );
    const summary = JSON.parse(batch.stdout);
    if (summary.completed !== items) throw new Error(`batch completed ${summary.completed}`);
    const loopScript = `n=0; while IFS= read -r p; do ` +
      `"${deno}" run -A cli.ts run --tools "${TOOLS}" "$p" > "${dir}/loop.ndjson" || exit 1; ` +
      `n=$((n+1)); done < "${dir}/prompts.txt"; echo $n`;
    const loop = await timed(["bash", "-c", loopScript], env, items);
    if (loop.stdout.trim() !== String(items)) throw new Error(`loop ran ${loop.stdout}`);
    const ratio = batch.measured.itemsPerS / loop.measured.itemsPerS;
    const results = {
      date: new Date().toISOString(),
      items,
      jobs,
      nproc: navigator.hardwareConcurrency,
      loadavg: Deno.loadavg(),
      batch: batch.measured,
      loop: loop.measured,
      ratio,
    };
    const fmt = (m: Measured) =>
      `${m.itemsPerS.toFixed(2)} items/s (${m.wallS.toFixed(1)} s wall, ${
        m.cpuS.toFixed(1)
      } s CPU)`;
    console.log(
      `| ${items} scripted items × 2 tool calls: \`batch --jobs ${jobs}\` vs a shell loop of \`run\` | ` +
        `${fmt(batch.measured)} | ${fmt(loop.measured)} | ≥ 3x the loop | ${ratio.toFixed(2)}x | ${
          ratio >= 3 ? "PASS" : "MISS"
        } |`,
    );
    if (values.json !== undefined) {
      await Deno.writeTextFile(values.json, JSON.stringify(results, null, 2) + "\n");
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
