/** Helpers of the batch tests: run the CLI's `batch`/`report`, read an output folder. */

import assert from "node:assert/strict";
import { SummaryRecordSchema } from "../../src/summary/records.ts";
import { cli, root as ROOT, spawnCli as spawnKitCli } from "../_kit/mod.ts";
import { FIXTURE_TOOLS } from "../e2e/_cli.ts";

export { FIXTURE_TOOLS, ROOT };

/** The batch tests' scenario file. */
export const BATCH_SCENARIO = `${ROOT}tests/batch/fixtures/batch.jsonc`;

/** What one CLI run produced. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@link spawnCli}. */
export interface SpawnOptions {
  /** MC_HOME of the backend (default: a fresh temporary folder, removed afterwards). */
  home?: string;
  /** Extra environment. */
  env?: Record<string, string>;
}

/** Start `deno run -A mod.ts ...args` from the repository root (the kit's, on the batch scenario). */
export function spawnCli(
  args: string[],
  options: SpawnOptions & { home: string },
): Deno.ChildProcess {
  return spawnKitCli(args, {
    home: options.home,
    backendSelfCheck: false,
    env: { MAGI_SCENARIO: BATCH_SCENARIO, ...options.env },
  });
}

/** Run the CLI to its end (killed after `killAfterMs`, a test failure). */
export async function runCli(
  args: string[],
  options: SpawnOptions & { killAfterMs?: number } = {},
): Promise<Run> {
  const { code, stdout, stderr } = await cli(args, {
    ...options,
    backendSelfCheck: false,
    env: { MAGI_SCENARIO: BATCH_SCENARIO, ...options.env },
    killAfterMs: options.killAfterMs ?? 120_000,
  });
  return { code, stdout, stderr };
}

/** A batch input file with `lines` (objects) in a new temporary folder; returns its path. */
export async function writeInput(dir: string, lines: object[]): Promise<string> {
  const path = `${dir}/input.jsonl`;
  await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

/** Parse the single JSON summary line of `batch` stdout. */
export function summaryOf(run: Run): Record<string, unknown> {
  const lines = run.stdout.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, 1, `stdout is one line: ${run.stdout}\nstderr: ${run.stderr}`);
  return JSON.parse(lines[0]!);
}

/** Index lines of `out` (whole lines only), in order. */
export async function indexLines(out: string): Promise<Record<string, unknown>[]> {
  let text = "";
  try {
    text = await Deno.readTextFile(`${out}/index.jsonl`);
  } catch {
    return [];
  }
  const lines = text.split("\n");
  lines.pop(); // "" after the last newline, or a line cut by a kill.
  return lines.filter((l) => l !== "").map((l) => JSON.parse(l));
}

/** Ids with a visible item file in `out`. */
export function itemFiles(out: string): string[] {
  try {
    return [...Deno.readDirSync(`${out}/items`)]
      .map((e) => e.name)
      .filter((n) => n.endsWith(".ndjson") && !n.startsWith("."))
      .map((n) => n.slice(0, -".ndjson".length))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Assert that item file `id` is whole: every line a valid summary record, ending with
 * the item's final record (`turn.finished` or `host.error`).
 */
export async function assertWholeItem(out: string, id: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${out}/items/${id}.ndjson`);
  assert.ok(text.endsWith("\n"), `${id}: ends with a newline`);
  const records = text.trim().split("\n").map((line) => {
    const record = JSON.parse(line);
    assert.ok(SummaryRecordSchema.safeParse(record).success, `${id}: valid record ${line}`);
    return record as Record<string, unknown>;
  });
  assert.equal(records[0]?.type === "host.ready" || records[0]?.type === "host.error", true);
  const last = records.at(-1)?.type;
  assert.ok(last === "turn.finished" || last === "host.error", `${id}: ends with ${last}`);
  return records;
}

/**
 * The prompts of the turns the reference backend under `home` (`MC_HOME`) has started and not
 * finished: a `user` record in one of its session files (`sessions/<id>.jsonl`, appended when a
 * turn starts) without a later `run_finished` of the same run. The event a test waits for
 * before it interrupts a running item; a line cut by a concurrent append is skipped.
 */
export async function runningPrompts(home: string): Promise<string[]> {
  const running: string[] = [];
  let entries: Deno.DirEntry[] = [];
  try {
    entries = [...Deno.readDirSync(`${home}/sessions`)];
  } catch {
    return running;
  }
  for (const entry of entries.filter((e) => e.name.endsWith(".jsonl"))) {
    const text = await Deno.readTextFile(`${home}/sessions/${entry.name}`).catch(() => "");
    const runs = new Map<unknown, string>();
    for (const line of text.split("\n")) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line);
      } catch {
        continue;
      }
      if (record.type === "user") runs.set(record.run_id, String(record.text));
      if (record.type === "run_finished") runs.delete(record.run_id);
    }
    running.push(...runs.values());
  }
  return running;
}
