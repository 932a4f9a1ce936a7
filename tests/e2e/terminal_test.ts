/** Ctrl-C typed on a real terminal (a pseudo-terminal driven by python3). */
import assert from "node:assert/strict";
import { fakeAgent, FIXTURE_TOOLS, one, REFERENCE_AGENT, ROOT } from "./_cli.ts";
import { HAS_SETSID, hasPython, runOnTerminal } from "./_terminal.ts";

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

Deno.test({
  name: "run: Ctrl-C on the terminal runs the cancel flow under the start task's least flags too",
  ignore: !(await hasPython()),
  fn: async () => {
    // Without full --allow-env the children start through setsid(1).
    const flags = [
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-env=MAGI_CODE_AGENT,PATH",
      "--allow-run",
    ];
    const args = ["run", "--tools", FIXTURE_TOOLS, "SLEEPY"];
    const result = await runOnTerminal('"tool.call"', args, undefined, {}, flags);
    assert.equal(result.code, 130, result.stderr);
    const finished = one(result.records, "turn.finished");
    assert.equal(finished.outcome, "cancelled");
    assert.equal(finished.cancelled_by, "signal");
  },
});

Deno.test({
  name:
    "run: Ctrl-C on the terminal runs the cancel flow under the flags tools --deno-flags prints",
  ignore: !(await hasPython()) || !HAS_SETSID,
  fn: async () => {
    // The printed flags grant setsid(1) (and reading what it starts), so children get their
    // own session: the terminal's SIGINT reaches only the host.
    const printed = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}mod.ts`, "tools", "--tools", FIXTURE_TOOLS, "--deno-flags"],
      cwd: ROOT,
      stdin: "null",
      env: { NO_COLOR: "1", MAGI_CODE_AGENT: REFERENCE_AGENT },
    }).output();
    assert.equal(printed.code, 0, new TextDecoder().decode(printed.stderr));
    const flags = new TextDecoder().decode(printed.stdout).trim().split(" ");
    assert.ok(flags.some((f) => /^--allow-run=.*setsid/.test(f)), flags.join(" "));
    const args = ["run", "--tools", FIXTURE_TOOLS, "SLEEPY"];
    const result = await runOnTerminal('"tool.call"', args, undefined, {}, flags);
    assert.equal(result.code, 130, result.stderr);
    // Seen once in a full run: "error" instead of "cancelled"; the record says which error.
    const toolResult = one(result.records, "tool.result");
    assert.equal(
      toolResult.outcome,
      "cancelled",
      `${JSON.stringify(toolResult)}\n${result.stderr}`,
    );
    const finished = one(result.records, "turn.finished");
    assert.equal(finished.outcome, "cancelled");
    assert.equal(finished.cancelled_by, "signal");
  },
});

Deno.test({
  name: "run: Ctrl-C twice on the terminal kills the backend's group, exit 130, a final record",
  ignore: !(await hasPython()),
  fn: async () => {
    const pidFile = await Deno.makeTempFile();
    try {
      const result = await runOnTerminal(
        '"turn.started"',
        ["run", "--tools", FIXTURE_TOOLS, "--agent", fakeAgent("stall_run"), "hello"],
        1_000,
        { FAKE_PID_FILE: pidFile },
      );
      assert.equal(result.code, 130, result.stderr);
      assert.equal(result.records.at(-1)?.type, "host.error");
      assert.equal(result.records.at(-1)?.code, "interrupted");
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

Deno.test({
  name: "run: --approve ask with nobody answering lets the approval expire: deny, the call not run",
  ignore: !(await hasPython()),
  fn: async () => {
    // MAGI_APPROVAL_EXPIRY_MS shortens the reference backend's 60 s approval expiry.
    const result = await runOnTerminal(
      "NEVER-TYPE-CTRL-C",
      ["run", "--tools", FIXTURE_TOOLS, "--approve", "ask", "APPROVE"],
      undefined,
      { MAGI_APPROVAL_EXPIRY_MS: "500" },
    );
    assert.equal(result.code, 0, result.stderr);
    // The person is asked when the call arrives (the backend's approval is the host's to answer),
    // within the backend's approval expiry.
    const approval = result.records.filter((r) => r.type === "approval" && "call_id" in r);
    assert.equal(approval.length, 1, JSON.stringify(result.records));
    assert.equal(approval[0]!.decision, "deny");
    assert.equal(approval[0]!.decided_by, "expiry");
    const denied = one(result.records, "tool.result");
    assert.equal(denied.error_code, "approval_denied");
    assert.equal(one(result.records, "turn.finished").outcome, "completed");
  },
});
