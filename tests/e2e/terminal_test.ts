/** Ctrl-C typed on a real terminal (a pseudo-terminal driven by python3). */
import assert from "node:assert/strict";
import { FIXTURE_TOOLS, one, type Rec, REFERENCE_AGENT, ROOT, SCENARIO } from "./_cli.ts";

const PTY = `${ROOT}tests/e2e/fixtures/pty_ctrl_c.py`;

async function hasPython(): Promise<boolean> {
  try {
    return (await new Deno.Command("python3", { args: ["-c", "import pty"] }).output()).success;
  } catch {
    return false;
  }
}

/** Run the CLI on a terminal; Ctrl-C once a stdout line contains `trigger`. */
async function runOnTerminal(
  trigger: string,
  args: string[],
  secondAfterMs?: number,
): Promise<{ code: number; records: Rec[]; stderr: string }> {
  const home = await Deno.makeTempDir({ prefix: "magi-tools-pty-" });
  try {
    const output = await new Deno.Command("python3", {
      args: [
        PTY,
        trigger,
        ...(secondAfterMs === undefined ? [] : ["--second-after", String(secondAfterMs)]),
        Deno.execPath(),
        "run",
        "-A",
        `${ROOT}mod.ts`,
        ...args,
      ],
      cwd: ROOT,
      stdin: "null",
      env: {
        NO_COLOR: "1",
        MC_HOME: home,
        MAGI_CODE_AGENT: REFERENCE_AGENT,
        MAGI_SCENARIO: SCENARIO,
      },
    }).output();
    const result = JSON.parse(new TextDecoder().decode(output.stdout)) as {
      code: number;
      stdout: string;
      stderr: string;
    };
    const records = result.stdout.split("\n").filter((line) => line !== "").map((line) =>
      JSON.parse(line) as Rec
    );
    return { code: result.code, records, stderr: result.stderr };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test({
  name: "run: Ctrl-C on the terminal during a tool runs the cancel flow and exits 130",
  ignore: !(await hasPython()),
  fn: async () => {
    const result = await runOnTerminal('"tool.call"', ["run", "--tools", FIXTURE_TOOLS, "SLEEPY"]);
    assert.equal(result.code, 130, result.stderr);
    assert.equal(one(result.records, "tool.result").outcome, "cancelled");
    const finished = one(result.records, "turn.finished");
    assert.equal(finished.outcome, "cancelled");
    assert.equal(finished.cancelled_by, "signal");
    assert.equal(result.records.filter((r) => r.type === "host.error").length, 0);
  },
});
