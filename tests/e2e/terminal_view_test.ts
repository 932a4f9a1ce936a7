/**
 * The terminal view: `run` with stdout on a real (pseudo-)terminal renders a
 * transcript instead of NDJSON; `--format` overrides the choice both ways.
 */
// deno-lint-ignore-file no-control-regex -- the tests match ANSI escape sequences
import assert from "node:assert/strict";
import { FIXTURE_TOOLS, REFERENCE_AGENT, ROOT, runCli } from "./_cli.ts";

const PTY = `${ROOT}tests/e2e/fixtures/pty_view.py`;
const VIEW_SCENARIO = `${ROOT}tests/e2e/fixtures/scenarios/view.jsonc`;

async function hasPython(): Promise<boolean> {
  try {
    return (await new Deno.Command("python3", { args: ["-c", "import pty"] }).output()).success;
  } catch {
    return false;
  }
}

const PYTHON = await hasPython();

/** Run the CLI with stdout on a terminal; `answer` types a reply once a text shows. */
async function runOnTerminal(
  args: string[],
  env: Record<string, string>,
  answer?: [string, string],
): Promise<{ code: number; output: string; stderr: string }> {
  const home = await Deno.makeTempDir({ prefix: "magi-tools-view-" });
  try {
    const output = await new Deno.Command("python3", {
      args: [
        PTY,
        ...(answer === undefined ? [] : ["--answer", ...answer]),
        Deno.execPath(),
        "run",
        "-A",
        `${ROOT}mod.ts`,
        ...args,
      ],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
      env: {
        MC_HOME: home,
        MAGI_CODE_AGENT: REFERENCE_AGENT,
        MAGI_SCENARIO: VIEW_SCENARIO,
        MAGI_TOOLS_SELF_CHECK: "1",
        ...env,
      },
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
    return JSON.parse(text);
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

const ANSI_COLOR = /\x1b\[(1|2|3\d)m/;

Deno.test({
  name: "run on a terminal shows a transcript: prompt, text, calls, spinner, approval prompt",
  ignore: !PYTHON,
  async fn() {
    const result = await runOnTerminal(
      ["run", "--tools", FIXTURE_TOOLS, "--approve", "ask", "VIEW please"],
      { NO_COLOR: "1" },
      ["[y/N]", "y\n"],
    );
    assert.equal(result.code, 0, result.stderr + result.output);
    const out = result.output.replaceAll("\r\n", "\n");
    assert.doesNotMatch(out, /"type":"/, "no NDJSON on a terminal");
    assert.doesNotMatch(out, ANSI_COLOR, "NO_COLOR: no colours");
    assert.match(out, /❯ VIEW please/);
    assert.match(out, /Counting first\./);
    assert.match(out, /→ counter \{"ms":1200\}/);
    // The spinner with the elapsed time, redrawn in place while the call runs.
    assert.match(out, /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] counter \d\.\ds/);
    assert.match(out, /\r\x1b\[K/);
    assert.match(out, /✔ counter (\d+ ms|\d\.\d s) · \d+ B/);
    // The approval is asked on the terminal, answered, and shown.
    assert.match(out, /Approve write tool note\? It runs with these arguments:\n {2}text: "hi"\n/);
    // Everything rendered before the question is on screen first; the question is not erased.
    assert.ok(out.indexOf("✔ counter") < out.indexOf("Approve write tool"), out);
    assert.match(out, /\[y\/N\] \(expires in \d+s\): y\n/);
    assert.match(out, /\? approve .* → allowed \(by you\)/);
    assert.match(out, /→ note \{"text":"hi"\}/);
    assert.match(out, /✔ note /);
    assert.match(out, /All done\./);
    assert.match(out, /✔ completed · 2 calls · \d+(\.\d)? (s|ms) · exit 0\n?$/);
  },
});

Deno.test({
  name: "run on a terminal: FORCE_COLOR colours the transcript, --format ndjson keeps NDJSON",
  ignore: !PYTHON,
  async fn() {
    const colored = await runOnTerminal(
      ["run", "--tools", FIXTURE_TOOLS, "--approve", "deny", "VIEW"],
      { NO_COLOR: "", FORCE_COLOR: "1" },
    );
    assert.equal(colored.code, 0, colored.stderr);
    assert.match(colored.output, /\x1b\[32m✔ completed\x1b\[0m/);
    assert.match(colored.output, /→ denied/);

    const ndjson = await runOnTerminal(
      ["run", "--tools", FIXTURE_TOOLS, "--format", "ndjson", "VIEW"],
      { NO_COLOR: "1" },
    );
    assert.equal(ndjson.code, 0, ndjson.stderr);
    const lines = ndjson.output.replaceAll("\r\n", "\n").trimEnd().split("\n");
    const types = lines.map((line) => JSON.parse(line).type);
    assert.equal(types.at(-1), "turn.finished");
    assert.ok(!types.includes("message.delta"), "NDJSON keeps deltas opt-in");
    const call = lines.map((line) => JSON.parse(line)).find((r) => r.type === "tool.call");
    assert.equal(call.arguments_preview, undefined, "NDJSON does not echo arguments");
  },
});

Deno.test("run --format text with stdout piped: plain transcript, no cursor control", async () => {
  const result = await runCli(
    ["run", "--format", "text", "--tools", FIXTURE_TOOLS, "--approve", "allow", "VIEW"],
    { raw: true, env: { MAGI_SCENARIO: VIEW_SCENARIO, FORCE_COLOR: "1" } },
  );
  assert.equal(result.code, 0, result.stderr);
  // NO_COLOR=1 (set by runCli) wins over FORCE_COLOR.
  assert.doesNotMatch(result.stdout, /\x1b/);
  const lines = result.stdout.trimEnd().split("\n");
  assert.equal(lines[0], "❯ VIEW");
  assert.ok(lines.includes('→ counter {"ms":1200}'), result.stdout);
  assert.ok(lines.some((l) => /^\? approve .* → allowed \(by --approve\)$/.test(l)));
  assert.match(lines.at(-1)!, /^✔ completed · 2 calls · .* · exit 0$/);
});

Deno.test("run --format rejects other values (exit 2)", async () => {
  const result = await runCli(["run", "--format", "html", "x"], { raw: true });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /Option --format must be text or ndjson: html/);
});
