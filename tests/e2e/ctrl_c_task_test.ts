/**
 * One Ctrl-C through the documented commands: `deno task start run …`, `npx --yes deno@2.9.6 task
 * start run …` and plain `deno run`, on a real terminal and by `kill -INT -- -PGID`. The terminal
 * signals the whole foreground group and `deno task`/`npx` forward their SIGINT too, so the host
 * receives several at once: they must count as one (graceful cancel, exit 130), while a deliberate
 * second Ctrl-C later still forces the stop.
 */
import assert from "node:assert/strict";
import { SIGINT_COALESCE_MS } from "../../src/run/stop.ts";
import { fakeAgent, FIXTURE_TOOLS, one, type Rec, ROOT } from "./_cli.ts";
import { hasPython, runCommandOnTerminal, type TerminalResult } from "./_terminal.ts";

const PYTHON = await hasPython();
const RUN = ["run", "--tools", FIXTURE_TOOLS, "SLEEPY"];
const TASK = [Deno.execPath(), "task", "--quiet", "start"];
/** The `start` task's flags, for plain `deno run` (deno.json). */
const START_FLAGS = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).tasks.start
  .replace(/^(MAGI_TOOLS_INVOCATION='[^']*' )?deno run /, "").replace(/ cli\.ts$/, "").split(
    " ",
  ) as string[];
const NPX = ["npx", "--yes", "deno@2.9.6", "task", "--quiet", "start"];

/** Whether `npx --yes deno@2.9.6` runs here (offline it needs npx's cache). */
async function hasNpxDeno(): Promise<boolean> {
  try {
    const output = await new Deno.Command("npx", {
      args: ["--yes", "deno@2.9.6", "--version"],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(30_000),
    }).output();
    return output.success && new TextDecoder().decode(output.stdout).startsWith("deno 2.9.6");
  } catch {
    return false;
  }
}

/** The graceful path: the tool cancelled, turn.finished cancelled by signal, exit 130. */
function assertGraceful(result: TerminalResult, hostCode = result.code): void {
  const summary = `stderr:\n${result.stderr}\nrecords:\n${
    result.records.map((r) => JSON.stringify(r)).join("\n")
  }`;
  assert.equal(hostCode, 130, summary);
  assert.deepEqual(result.records.filter((r: Rec) => r.type === "host.error"), [], summary);
  assert.equal(one(result.records, "tool.cancel").reason, "run_cancelled");
  const tool = one(result.records, "tool.result");
  assert.equal(tool.outcome, "cancelled");
  assert.equal(tool.delivery, "complete");
  const finished = one(result.records, "turn.finished");
  assert.equal(finished.outcome, "cancelled");
  assert.equal(finished.cancelled_by, "signal");
  assert.equal(finished.exit_code, 130);
  assert.equal(result.records.at(-1)?.type, "turn.finished");
}

Deno.test({
  name: "ctrl-c: one Ctrl-C on a terminal under `deno task start run` cancels gracefully, exit 130",
  ignore: !PYTHON,
  fn: async () => {
    assertGraceful(await runCommandOnTerminal('"tool.call"', [...TASK, ...RUN]));
  },
});

Deno.test({
  name: "ctrl-c: SIGINT to the process group of `deno task start run` cancels gracefully, exit 130",
  ignore: !PYTHON,
  fn: async () => {
    assertGraceful(await runCommandOnTerminal('"tool.call"', [...TASK, ...RUN], { group: true }));
  },
});

Deno.test({
  name: "ctrl-c: SIGINT to the process group of plain `deno run` cancels gracefully, exit 130",
  ignore: !PYTHON,
  fn: async () => {
    const command = [Deno.execPath(), "run", ...START_FLAGS, `${ROOT}cli.ts`, ...RUN];
    assertGraceful(await runCommandOnTerminal('"tool.call"', command, { group: true }));
  },
});

Deno.test({
  name: "ctrl-c: one Ctrl-C under `npx --yes deno@2.9.6 task start run` cancels gracefully",
  ignore: !PYTHON || !(await hasNpxDeno()),
  fn: async () => {
    for (const group of [false, true]) {
      const result = await runCommandOnTerminal('"tool.call"', [...NPX, ...RUN], { group });
      // npm re-raises a SIGINT its child died of on itself (@npmcli/run-script), so npx itself may
      // end by SIGINT (-2), which a shell shows as 130; the host's own code is in turn.finished.
      assert.ok(result.code === 130 || result.code === -2, `npx exit ${result.code}`);
      assertGraceful(result, Number(one(result.records, "turn.finished").exit_code));
    }
  },
});

Deno.test({
  name: "ctrl-c: a deliberate second Ctrl-C later under `deno task` still forces the stop",
  ignore: !PYTHON,
  fn: async () => {
    const pidFile = await Deno.makeTempFile();
    try {
      const command = [...TASK, "run", "--tools", FIXTURE_TOOLS, "--agent", fakeAgent("stall_run")];
      const result = await runCommandOnTerminal('"turn.started"', [...command, "hello"], {
        secondAfterMs: SIGINT_COALESCE_MS + 700,
        env: { FAKE_PID_FILE: pidFile },
      });
      assert.equal(result.code, 130, result.stderr);
      assert.equal(result.records.filter((r) => r.type === "turn.finished").length, 0);
      const last = result.records.at(-1);
      assert.equal(last?.type, "host.error");
      assert.equal(last?.code, "interrupted");
      assert.equal(last?.exit_code, 130);
      const pid = Number(await Deno.readTextFile(pidFile));
      assert.ok(pid > 0);
      await assert.rejects(
        Deno.stat(`/proc/${pid}`),
        Deno.errors.NotFound,
        "backend still running",
      );
    } finally {
      await Deno.remove(pidFile);
    }
  },
});
