// deno-lint-ignore-file no-control-regex -- the test checks that no ANSI escape is printed
/**
 * `deno task demo` on a terminal shows the transcript `run` shows (and says how to get NDJSON);
 * `--format text|ndjson` picks either way; piped, it stays NDJSON (demo_task_test.ts).
 */
import assert from "node:assert/strict";
import { ROOT } from "./_cli.ts";
import { hasPython } from "./_terminal.ts";

const PYTHON = await hasPython();
const PTY = `${ROOT}tests/e2e/fixtures/pty_view.py`;
const DEMO = [Deno.execPath(), "task", "--quiet", "demo"];

/** The demo with stdin and stdout on a terminal (stderr piped apart). */
async function demoOnTerminal(
  args: string[],
): Promise<{ code: number; output: string; stderr: string }> {
  const output = await new Deno.Command("python3", {
    args: [PTY, ...DEMO, ...args],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const result = JSON.parse(new TextDecoder().decode(output.stdout));
  return { ...result, output: result.output.replaceAll("\r\n", "\n") };
}

Deno.test({
  name: "deno task demo on a terminal: the transcript, and stderr says how to get NDJSON",
  ignore: !PYTHON,
  async fn() {
    const result = await demoOnTerminal([]);
    assert.equal(result.code, 0, result.stderr + result.output);
    assert.doesNotMatch(result.output, /"type":"/, "no NDJSON on a terminal");
    assert.match(result.output, /❯ Please run text_stats/);
    assert.match(result.output, /→ ticket_lookup \{"id":"MAGI-7"\}/);
    assert.match(result.output, /write_note → denied/);
    assert.match(result.output, /✔ completed · 3 calls, 1 denied · .* · exit 0\n?$/);
    assert.match(result.stderr, /--format ndjson \(or a pipe\) prints the NDJSON records/);
  },
});

Deno.test({
  name: "deno task demo --format ndjson on a terminal prints NDJSON records",
  ignore: !PYTHON,
  async fn() {
    const result = await demoOnTerminal(["--format", "ndjson"]);
    assert.equal(result.code, 0, result.stderr);
    const types = result.output.trimEnd().split("\n").map((line) => JSON.parse(line).type);
    assert.equal(types[0], "host.ready");
    assert.equal(types.at(-1), "turn.finished");
    assert.doesNotMatch(result.stderr, /prints the NDJSON records/);
  },
});

Deno.test("deno task demo --format text with stdout piped: the plain transcript", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "demo", "--format", "text"],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.doesNotMatch(stdout, /\x1b/);
  assert.match(stdout, /^❯ Please run /);
  assert.match(stdout, /✔ completed · 3 calls, 1 denied · .* · exit 0\n$/);
});

Deno.test("demo --format rejects other values (exit 2)", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "demo", "--format", "html"],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(output.code, 2);
  assert.match(
    new TextDecoder().decode(output.stderr),
    /Option --format must be text or ndjson: html/,
  );
});
