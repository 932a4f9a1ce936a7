/**
 * Attack family: terminal escapes (issue 23 item 7). A tool's result, its log
 * lines, a thrown error's message and an MCP server's stderr carry OSC 52
 * (clipboard write), OSC 0 (title), `ESC[2J`, an OSC 8 link, C1 CSI (U+009B),
 * a lone CR and DEL. None of it may reach a terminal raw: `run --format text`
 * (into a pipe and on a real pseudo-terminal), `call` on a terminal, every
 * stderr line, and NDJSON on stdout (JSON.stringify leaves C1 and DEL raw).
 * Next to each attack, the legitimate use: newlines, tabs and non-ASCII text
 * print unchanged.
 */
// deno-lint-ignore-file no-control-regex -- the tests look for raw control characters
import assert from "node:assert/strict";
import { REFERENCE_AGENT, ROOT, runCli } from "../e2e/_cli.ts";
import { writeFolder } from "../report/_fixture.ts";

const TOOLS = `${ROOT}tests/security/fixtures/escape_tools`;
const PTY = `${ROOT}tests/e2e/fixtures/pty_view.py`;

/** Control characters a terminal acts on (all C0 but LF and tab, DEL, all C1). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** The payload of the fixtures as it must be shown: every control visible. */
const SHOWN_RESULT = "R1\\x1b]52;c;SGVsbG8=\\x07R2\\x1b]0;pwned\\x07R3\\x1b[2JR4" +
  "\\x1b]8;;http://evil.invalid/\\x1b\\link\\x1b]8;;\\x1b\\R5\\u009b31mR6\\rR7\\x7fR8";
const SHOWN_ERROR = "E1\\x1b]52;c;SGVsbG8=\\x07E2\\x1b]0;pwned\\x07E3\\x1b[2JE4\\u009b31mE5\\rE6";
/** The payload as the tool wrote it. */
const RAW_RESULT = "R1\x1b]52;c;SGVsbG8=\x07R2\x1b]0;pwned\x07R3\x1b[2JR4" +
  "\x1b]8;;http://evil.invalid/\x1b\\link\x1b]8;;\x1b\\R5\u009b31mR6\rR7\x7fR8";
const PLAIN = "plain one\n\tplain two: Ä ✓ 日本 🙂\nplain three";

/** The first raw control character of `text` and what surrounds it, for a failure message. */
function firstRaw(text: string): string {
  const at = text.search(RAW_CONTROL);
  return at < 0 ? "none" : JSON.stringify(text.slice(Math.max(0, at - 30), at + 30));
}

function assertNoRawControl(text: string, where: string): void {
  assert.ok(!RAW_CONTROL.test(text), `raw control character in ${where}: ${firstRaw(text)}`);
}

async function hasPython(): Promise<boolean> {
  try {
    return (await new Deno.Command("python3", { args: ["-c", "import pty"] }).output()).success;
  } catch {
    return false;
  }
}
const PYTHON = await hasPython();

/** `mod.ts ...args` with stdout on a pseudo-terminal (tests/e2e/fixtures/pty_view.py). */
async function onTerminal(
  args: string[],
): Promise<{ code: number; output: string; stderr: string }> {
  const home = await Deno.makeTempDir({ prefix: "magi-tools-escapes-" });
  try {
    const output = await new Deno.Command("python3", {
      args: [
        PTY,
        Deno.execPath(),
        "run",
        `--lock=${ROOT}deno.full.lock`,
        "-A",
        `${ROOT}mod.ts`,
        ...args,
      ],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
      env: { MC_HOME: home, MAGI_CODE_AGENT: REFERENCE_AGENT, NO_COLOR: "1" },
    }).output();
    assert.ok(output.success, new TextDecoder().decode(output.stderr));
    return JSON.parse(new TextDecoder().decode(output.stdout));
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
}

Deno.test("run --format text shows a tool's escapes in its result, log and error visibly", async () => {
  const result = await runCli(
    ["run", "--format", "text", "--tools", TOOLS, "hostile_result hostile_error"],
    { raw: true },
  );
  assert.equal(result.code, 0, result.stderr);
  // Into a pipe without colours the view writes no control of its own: none may be there.
  assertNoRawControl(result.stdout, "stdout");
  assertNoRawControl(result.stderr, "stderr");
  assert.ok(result.stdout.includes(`│ log ${SHOWN_RESULT}`), result.stdout);
  assert.ok(result.stdout.includes(`│ top ${SHOWN_RESULT}`), "output outside a call");
  assert.ok(result.stdout.includes(`result ${SHOWN_RESULT}`), "the result, in the reply");
  assert.ok(result.stdout.includes(SHOWN_ERROR), "the thrown message, in the reply");
  assert.ok(result.stderr.includes(SHOWN_ERROR), "the thrown message, on stderr");
  // The legitimate use: newlines, tabs and non-ASCII text unchanged.
  assert.ok(result.stdout.includes(`│ log plain one\n  │ \tplain two: Ä ✓ 日本 🙂\n`));
  assert.ok(result.stdout.includes(`${SHOWN_RESULT} ${PLAIN}\n`), result.stdout);
});

Deno.test({
  name: "run on a terminal writes only the view's own escapes",
  ignore: !PYTHON,
  async fn() {
    const result = await onTerminal(
      ["run", "--tools", TOOLS, "hostile_result hostile_error"],
    );
    assert.equal(result.code, 0, result.stderr + result.output);
    // The terminal's own CR LF line ends and the status line's redraw are the view's.
    const foreign = result.output.replaceAll("\r\n", "\n").replaceAll("\r\x1b[K", "");
    assertNoRawControl(foreign, "the terminal");
    assertNoRawControl(result.stderr, "stderr");
    assert.ok(foreign.includes(`result ${SHOWN_RESULT}`), foreign);
    assert.ok(foreign.includes(SHOWN_ERROR), foreign);
    assert.ok(foreign.includes("\tplain two: Ä ✓ 日本 🙂\n"), foreign);
  },
});

Deno.test("NDJSON carries no raw C1 or DEL and still parses to the tool's exact text", async () => {
  const result = await runCli(
    ["run", "--format", "ndjson", "--tools", TOOLS, "hostile_result"],
  );
  assert.equal(result.code, 0, result.stderr);
  assertNoRawControl(result.stdout, "NDJSON stdout");
  assert.ok(result.stdout.includes("\\u009b31m"), "C1 CSI escaped as \\u009b");
  assert.ok(result.stdout.includes("\\u007f"), "DEL escaped as \\u007f");
  const logs = result.records.filter((r) => r.type === "tool.log").map((r) => r.text).join("");
  assert.ok(logs.includes(`log ${RAW_RESULT}\n`), "the record holds the exact text");
  assert.ok(logs.includes(`log ${PLAIN}\n`));
  const message = result.records.find((r) => r.type === "message" && r.partial === false);
  assert.ok(String(message?.text).includes(`result ${RAW_RESULT} ${PLAIN}`));
});

Deno.test("call shows a tool's log and error on stderr visibly; a pipe gets the exact result", async () => {
  const failed = await runCli(["call", "--tools", TOOLS, "hostile_error", "{}"], { raw: true });
  assert.equal(failed.code, 1, failed.stderr);
  assertNoRawControl(failed.stderr, "stderr");
  assert.ok(failed.stderr.includes(`magi-tools: tool_failed: ${SHOWN_ERROR}`), failed.stderr);

  const ok = await runCli(["call", "--tools", TOOLS, "hostile_result", "{}"], { raw: true });
  assert.equal(ok.code, 0, ok.stderr);
  assertNoRawControl(ok.stderr, "stderr");
  assert.ok(ok.stderr.includes(`log ${SHOWN_RESULT}`), ok.stderr);
  assert.ok(ok.stderr.includes(`log ${PLAIN}`), "plain log text unchanged");
  // Into a pipe (not a terminal) the result is data, written exactly as the tool returned it.
  assert.equal(ok.stdout, `result ${RAW_RESULT} ${PLAIN}\n`);
});

Deno.test({
  name: "call on a terminal shows the result's escapes visibly",
  ignore: !PYTHON,
  async fn() {
    const result = await onTerminal(["call", "--tools", TOOLS, "hostile_result", "{}"]);
    assert.equal(result.code, 0, result.stderr + result.output);
    const shown = result.output.replaceAll("\r\n", "\n");
    assertNoRawControl(shown, "the terminal");
    assert.equal(shown, `result ${SHOWN_RESULT} ${PLAIN}\n`);
  },
});

Deno.test("an MCP server's stderr relayed in an error shows its escapes visibly", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-escapes-mcp-" });
  try {
    await Deno.mkdir(`${dir}/tools`);
    const script = String.raw`printf 'S1\033]0;pwned\007S2\302\2332JS3 Ä\tok\n' >&2; exit 1`;
    await Deno.writeTextFile(
      `${dir}/cfg.jsonc`,
      JSON.stringify({ mcpServers: { evil: { command: "sh", args: ["-c", script] } } }),
    );
    const result = await runCli(
      ["tools", "--config", `${dir}/cfg.jsonc`, "--tools", `${dir}/tools`],
      { raw: true, cwd: dir },
    );
    assert.equal(result.code, 2, result.stderr);
    assertNoRawControl(result.stderr, "stderr");
    assert.ok(
      result.stderr.includes("stderr: S1\\x1b]0;pwned\\x07S2\\u009b2JS3 Ä\tok"),
      result.stderr,
    );
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("report's Markdown shows an item's error text with its escapes visibly", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-escapes-report-" });
  try {
    await writeFolder(`${dir}/out`, [
      { id: "ok-1", durationMs: 100, calls: [["lookup", 10, 20, "success"]] },
      { id: "bad-1", durationMs: 100, calls: [], end: "error", error: `backend: ${RAW_RESULT} Ä` },
    ]);
    const result = await runCli(["report", `${dir}/out`], { raw: true });
    assert.equal(result.code, 0, result.stderr);
    assertNoRawControl(result.stdout, "the Markdown on stdout");
    // `]` is escaped for Markdown (`\]`, shown as `]`): no link or image from an error text.
    assert.ok(result.stdout.includes("\\x1b\\]52;c;SGVsbG8=\\x07"), result.stdout);
    assert.ok(result.stdout.includes("Ä"));
    await runCli(["report", `${dir}/out`, "--markdown", `${dir}/summary.md`], { raw: true });
    assertNoRawControl(await Deno.readTextFile(`${dir}/summary.md`), "the Markdown file");
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("trust shows a config path's escapes visibly", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-escapes-trust-" });
  try {
    const project = `${dir}/p\x1b]0;pwned\x07q Ä`;
    await Deno.mkdir(project);
    await Deno.writeTextFile(
      `${project}/magi-tools.jsonc`,
      JSON.stringify({ mcpServers: { x: { command: "sh", args: ["-c", "true"] } } }),
    );
    const result = await runCli(["trust", `${project}/magi-tools.jsonc`], {
      raw: true,
      env: { XDG_CONFIG_HOME: `${dir}/config` },
    });
    assert.equal(result.code, 0, result.stderr);
    assertNoRawControl(result.stdout, "stdout");
    assert.ok(result.stdout.includes("p\\x1b]0;pwned\\x07q Ä/magi-tools.jsonc"), result.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
