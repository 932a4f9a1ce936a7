import assert from "node:assert/strict";
import { parseBatchArgs, parseReportArgs } from "../../src/cli/args/batch.ts";
import { splitCommandLine } from "../../src/run/split.ts";
import { ROOT } from "../e2e/_cli.ts";

const WORKFLOW = `${ROOT}examples/github-actions/agent-batch.yml`;
const JOB = `${ROOT}examples/kubernetes/indexed-job.yaml`;
const REPORT_JOB = `${ROOT}examples/kubernetes/report-job.yaml`;

/** The shell command after `prefix` that begins with `command`, joined onto one line. */
function commandIn(text: string, command: string, prefix = "deno task start "): string {
  const start = text.indexOf(`${prefix}${command} `);
  assert.ok(start >= 0, `no '${prefix}${command}' in the example`);
  const lines: string[] = [];
  for (const line of text.slice(start).split("\n")) {
    const trimmed = line.trim();
    if (lines.length > 0 && (trimmed === "" || /^[A-Za-z][-A-Za-z]*:|^code=|^- /.test(trimmed))) {
      break;
    }
    lines.push(trimmed.replace(/\\$/, ""));
  }
  return lines.join(" ").slice(prefix.length);
}

function substitute(command: string, values: Record<string, string>): string[] {
  let text = command;
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(name, value);
  return splitCommandLine(text);
}

Deno.test("examples: the GitHub Actions matrix covers shards 1..SHARDS with valid batch/report flags", async () => {
  const text = await Deno.readTextFile(WORKFLOW);
  const shards = Number(/^\s+SHARDS: (\d+)$/m.exec(text)?.[1]);
  const matrix = /shard: \[([\d, ]+)\]/.exec(text)?.[1]?.split(",").map((s) => Number(s.trim()));
  assert.deepEqual(matrix, Array.from({ length: shards }, (_, i) => i + 1));
  const input = /INPUT: \$\{\{[^']*'([^']+)'/.exec(text)?.[1];
  assert.ok(input !== undefined);
  // The default input is the init project's task list (tests/e2e/ci_workflow_test.ts runs it).
  assert.equal(input, "tasks.jsonl");
  for (const k of matrix!) {
    // `deno task batch …`: the init project's task (the CLI's `batch`).
    const argv = substitute(commandIn(text, "batch", "deno task "), {
      "$SHARDS": String(shards),
      "$SHARD": String(k),
      "$INPUT": input,
    });
    const args = parseBatchArgs(argv.slice(1));
    assert.equal(args.command, "batch");
    if (args.command !== "batch") continue;
    assert.deepEqual(args.shard, { index: k, count: shards });
    assert.equal(args.out, `out/shard-${k}`);
    assert.match(text, new RegExp(`path: out/shard-\\$\\{\\{ matrix.shard \\}\\}`));
  }
  const report = parseReportArgs(
    substitute(commandIn(text, "report", "deno task "), { "$GITHUB_STEP_SUMMARY": "summary.md" })
      .slice(1),
  );
  assert.equal(report.command, "report");
  if (report.command === "report") {
    assert.deepEqual(report.dirs, ["out/batch-shard-*"]);
    assert.equal(report.markdown, "summary.md");
  }
  assert.match(text, /pattern: batch-shard-\*/);
  assert.match(text, /name: batch-shard-\$\{\{ matrix.shard \}\}/);
});

Deno.test("examples: the Kubernetes Indexed Job runs shard K/N per completion index", async () => {
  const text = await Deno.readTextFile(JOB);
  const completions = Number(/completions: (\d+)/.exec(text)?.[1]);
  assert.match(text, /completionMode: Indexed/);
  assert.match(text, new RegExp(`name: SHARDS\\s+value: "${completions}"`));
  for (let index = 0; index < completions; index++) {
    const k = index + 1;
    const argv = substitute(commandIn(text, "batch"), {
      "$K": String(k),
      "$SHARDS": String(completions),
    });
    const args = parseBatchArgs(argv.slice(1));
    assert.equal(args.command, "batch");
    if (args.command === "batch") {
      assert.deepEqual(args.shard, { index: k, count: completions });
      assert.equal(args.out, `/data/out/shard-${k}`);
    }
  }
  const report = parseReportArgs(
    splitCommandLine(commandIn(await Deno.readTextFile(REPORT_JOB), "report")).slice(1),
  );
  assert.equal(report.command, "report");
  if (report.command === "report") assert.deepEqual(report.dirs, ["/data/out/shard-*"]);
});
