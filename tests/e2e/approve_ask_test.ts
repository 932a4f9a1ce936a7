/**
 * `--approve ask` through the documented commands, on a real (pseudo-)terminal: `deno task start
 * run …` in this repository and in a project made by `init`. The tasks grant no `--allow-all`,
 * which Deno needs to open `/dev/tty`: the question goes to stderr and the answer is read from
 * stdin when both are the terminal, so it never mixes with NDJSON on a piped stdout.
 */
import assert from "node:assert/strict";
import { FIXTURE_TOOLS, one, type Rec, REFERENCE_AGENT, ROOT, runCli } from "./_cli.ts";
import { HAS_SETSID, hasPython } from "./_terminal.ts";

const PYTHON = await hasPython();
const PTY = `${ROOT}tests/e2e/fixtures/pty_ask.py`;
const TASK = [Deno.execPath(), "task", "--quiet", "start"];
/** The fixture write tool: the prompt names it, the reference backend calls it. */
const NOTE_PROMPT = 'note {"text":"x"}';

interface AskResult {
  code: number;
  /** What the terminal showed (stdin, stderr, and stdout unless piped), CR LF as LF. */
  terminal: string;
  /** NDJSON records from a piped stdout. */
  records: Rec[];
}

/** Run `command` on a terminal in `cwd`; type `keys` once the terminal shows `[y/N]`. */
async function askOnTerminal(
  command: string[],
  options: { cwd: string; keys: string; pipeStdout: boolean },
): Promise<AskResult> {
  const home = await Deno.makeTempDir({ prefix: "magi-tools-ask-" });
  try {
    const output = await new Deno.Command("python3", {
      args: [
        PTY,
        ...(options.pipeStdout ? ["--stdout-pipe"] : []),
        "--type",
        "[y/N]",
        options.keys,
        ...command,
      ],
      cwd: options.cwd,
      stdin: "null",
      env: { NO_COLOR: "1", MC_HOME: home, MAGI_CODE_AGENT: REFERENCE_AGENT },
    }).output();
    const result = JSON.parse(new TextDecoder().decode(output.stdout)) as {
      code: number;
      terminal: string;
      stdout: string;
    };
    const records = result.stdout.split("\n").filter((line) => line !== "").map((line) =>
      JSON.parse(line) as Rec
    );
    return { code: result.code, terminal: result.terminal.replaceAll("\r\n", "\n"), records };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

/**
 * The person's decision: the `approval` record of the question asked when the call arrived
 * (`call_id`). The backend's approval of the same call is answered by the host (`decided_by:
 * "host"`): the person is asked with the arguments at call time (docs/tools.md).
 */
function approval(result: AskResult): Rec {
  const host = result.records.filter((r) => r.type === "approval" && "approval_id" in r);
  assert.deepEqual(host.map((r) => [r.decision, r.decided_by]), [["allow", "host"]]);
  const asked = result.records.filter((r) => r.type === "approval" && "call_id" in r);
  assert.equal(asked.length, 1, JSON.stringify(result.records));
  return asked[0]!;
}

Deno.test({
  name: "approve ask: `deno task start run` on a terminal asks, y allows (transcript view)",
  ignore: !PYTHON,
  async fn() {
    const result = await askOnTerminal(
      [...TASK, "run", "--tools", FIXTURE_TOOLS, "--approve", "ask", NOTE_PROMPT],
      { cwd: ROOT, keys: "y\n", pipeStdout: false },
    );
    assert.equal(result.code, 0, result.terminal);
    assert.match(
      result.terminal,
      /Approve write tool note\? It runs with these arguments:\n {2}text: "x"\n\[y\/N\] \(expires in \d+s\): y\n/,
    );
    assert.match(result.terminal, /\? approve .* → allowed \(by you\)/);
    assert.match(result.terminal, /✔ note /);
    assert.doesNotMatch(result.terminal, /needs a terminal|cannot prompt/);
  },
});

Deno.test({
  name: "approve ask: `deno task start run` with stdout piped: NDJSON stays clean, n denies",
  ignore: !PYTHON,
  async fn() {
    const result = await askOnTerminal(
      [...TASK, "run", "--tools", FIXTURE_TOOLS, "--approve", "ask", NOTE_PROMPT],
      { cwd: ROOT, keys: "n\n", pipeStdout: true },
    );
    assert.equal(result.code, 0, result.terminal);
    // The question was on the terminal (stderr), the answer echoed there; stdout is only records.
    assert.match(result.terminal, /\n {2}text: "x"\n\[y\/N\] \(expires in \d+s\): n\n/);
    const decided = approval(result);
    assert.equal(decided.decision, "deny");
    assert.equal(decided.decided_by, "user");
    // A denied call never runs: the model is told so.
    const denied = one(result.records, "tool.result");
    assert.equal(denied.outcome, "error");
    assert.equal(denied.error_code, "approval_denied");
    assert.equal(result.records.at(-1)?.type, "turn.finished");
  },
});

Deno.test({
  name: "approve ask: one Ctrl-C at the prompt under `deno task` cancels gracefully, exit 130",
  ignore: !PYTHON,
  async fn() {
    const result = await askOnTerminal(
      [...TASK, "run", "--tools", FIXTURE_TOOLS, "--approve", "ask", NOTE_PROMPT],
      { cwd: ROOT, keys: "\\x03", pipeStdout: true },
    );
    const summary = `${result.terminal}\n${
      result.records.map((r) => JSON.stringify(r)).join("\n")
    }`;
    assert.equal(result.code, 130, summary);
    // The SIGINT `deno task` forwards is the same keypress: no forced stop, no host.error.
    assert.deepEqual(result.records.filter((r) => r.type === "host.error"), [], summary);
    const finished = one(result.records, "turn.finished");
    assert.equal(finished.cancelled_by, "signal", summary);
    assert.equal(approval(result).decision, "deny");
  },
});

/** A tools project made by `init`, with a write tool of its own. */
async function initProject(): Promise<string> {
  const parent = await Deno.makeTempDir({ prefix: "magi-tools-ask-init-" });
  const dir = `${parent}/project`;
  const made = await runCli(["init", dir, "--from", ROOT], { raw: true });
  assert.equal(made.code, 0, made.stderr);
  await Deno.writeTextFile(
    `${dir}/tools/stamp.ts`,
    `import { z } from "zod";
import { defineTool } from "@magi/tools";

export default defineTool({
  name: "stamp",
  description: "Pretend to stamp a document (needs approval).",
  input: z.strictObject({ text: z.string() }),
  effect: "write",
  run: ({ text }) => \`stamped \${text}\`,
});
`,
  );
  return dir;
}

Deno.test({
  name: "approve ask: an init project's `deno task start run` asks; y allows, n denies",
  ignore: !PYTHON,
  async fn() {
    const dir = await initProject();
    try {
      const command = [...TASK, "run", "--approve", "ask", 'stamp {"text":"x"}'];
      const yes = await askOnTerminal(command, { cwd: dir, keys: "y\n", pipeStdout: true });
      assert.equal(yes.code, 0, yes.terminal);
      assert.equal(approval(yes).decision, "allow");
      assert.equal(approval(yes).decided_by, "user");
      assert.equal(one(yes.records, "tool.result").outcome, "success");

      const no = await askOnTerminal(command, { cwd: dir, keys: "n\n", pipeStdout: false });
      assert.equal(no.code, 0, no.terminal);
      assert.match(no.terminal, /\? approve .* → denied \(by you\)/);
    } finally {
      await Deno.remove(`${dir}/..`, { recursive: true });
    }
  },
});

/** Run `command` in a session of its own (setsid): no controlling terminal, as in CI. */
async function withoutTerminal(command: string[], stdin: string | null): Promise<{
  code: number;
  stderr: string;
}> {
  const child = new Deno.Command("setsid", {
    args: command,
    cwd: ROOT,
    stdin: stdin === null ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", MAGI_CODE_AGENT: REFERENCE_AGENT },
  }).spawn();
  if (stdin !== null) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

Deno.test({
  name: "approve ask: with the prompt on stdin, the usage error says why and what to run instead",
  ignore: !HAS_SETSID,
  async fn() {
    const result = await withoutTerminal(
      [...TASK, "run", "--tools", FIXTURE_TOOLS, "--approve", "ask"],
      NOTE_PROMPT,
    );
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /Option --approve ask cannot prompt: stdin carries the prompt, and Deno opens \/dev\/tty only with --allow-all: pass the prompt as an argument, with stdin and stderr on the terminal, or answer by flag with --approve allow or --approve deny/,
    );
  },
});

Deno.test({
  name: "approve ask: with no terminal at all (even under -A), the usage error says so",
  ignore: !HAS_SETSID,
  async fn() {
    const result = await withoutTerminal(
      [
        Deno.execPath(),
        "run",
        "-A",
        `${ROOT}mod.ts`,
        "run",
        "--tools",
        FIXTURE_TOOLS,
        "--approve",
        "ask",
        NOTE_PROMPT,
      ],
      null,
    );
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /Option --approve ask needs a terminal: stdin and stderr are not both terminals and there is no controlling terminal \(\/dev\/tty\): answer by flag with --approve allow or --approve deny/,
    );
  },
});
