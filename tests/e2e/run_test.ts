import assert from "node:assert/strict";
import { fakeAgent, FIXTURE_TOOLS, ofType, one, ROOT, runCli, SCENARIO } from "./_cli.ts";

const WITH_SCENARIO = { env: { MAGI_SCENARIO: SCENARIO } };

function run(prompt: string, ...flags: string[]): string[] {
  return ["run", "--tools", FIXTURE_TOOLS, ...flags, prompt];
}

Deno.test("run: a bad flag exits 2 naming the flag, with nothing on stdout", async () => {
  const result = await runCli(["run", "--frobnicate", "x"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--frobnicate/);
  assert.equal(result.stdout, "");
});

Deno.test("run: a broken tool module exits 2 naming the file", async () => {
  const result = await runCli([
    "run",
    "--tools",
    `${ROOT}tests/e2e/fixtures/broken_tools`,
    "hello",
  ]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /bad\.ts/);
  assert.equal(result.stdout, "");
});

Deno.test("run: --approve ask without a terminal is a usage error (exit 2)", async () => {
  // setsid: no controlling terminal, so /dev/tty cannot be opened.
  const output = await new Deno.Command("setsid", {
    args: [Deno.execPath(), "run", "-A", `${ROOT}mod.ts`, "run", "--approve", "ask", "hello"],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1", MAGI_CODE_AGENT: fakeAgent("ok") },
  }).output();
  assert.equal(output.code, 2);
  assert.match(new TextDecoder().decode(output.stderr), /--approve ask/);
  assert.equal(output.stdout.length, 0);
});

// "A missing backend command exits 3 with host.error (backend_unavailable)": the same run in
// robustness_test.ts ("names only its basename") and first_contact_test.ts.

Deno.test("run: completes a turn against the reference backend and writes --last-message", async () => {
  const file = await Deno.makeTempFile();
  try {
    const result = await runCli(
      run('Use sleepy {"ms":10} please', "--last-message", file, "--deltas"),
    );
    assert.equal(result.code, 0, result.stderr);
    const finished = one(result.records, "turn.finished");
    assert.equal(finished.outcome, "completed");
    assert.equal(finished.exit_code, 0);
    assert.equal(one(result.records, "tool.result").outcome, "success");
    const messages = ofType(result.records, "message");
    assert.equal(await Deno.readTextFile(file), messages.at(-1)?.text);
    assert.ok(ofType(result.records, "message.delta").length > 0);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("run: a result just under the bound is delivered in parts", async () => {
  const result = await runCli(run("BIG_UNDER"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  const tool = one(result.records, "tool.result");
  assert.equal(tool.outcome, "success");
  assert.equal(tool.bytes, 1_048_576);
  assert.ok((tool.parts as number) > 1);
  assert.equal(tool.delivery, "complete");
});

Deno.test("run: a result over the bound becomes a result_too_large error", async () => {
  const result = await runCli(run("BIG_OVER"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  const tool = one(result.records, "tool.result");
  assert.equal(tool.outcome, "error");
  assert.equal(tool.error_code, "result_too_large");
  assert.equal(tool.delivery, "complete");
});

Deno.test("run: at most concurrent_calls tools run at once", async () => {
  const result = await runCli(run("CONCURRENT"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(ofType(result.records, "tool.result").length, 8);
  const text = String(one(result.records, "message").text);
  const maxima = [...text.matchAll(/max=(\d+)/g)].map((m) => Number(m[1]));
  assert.equal(maxima.length, 8);
  assert.ok(Math.max(...maxima) <= 4, text);
  assert.ok(Math.max(...maxima) >= 2, text);
});

Deno.test("run: a tool past its deadline is cancelled and the turn goes on", async () => {
  const result = await runCli(run("DEADLINE"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  const tool = one(result.records, "tool.result");
  assert.equal(tool.outcome, "error");
  assert.equal(tool.error_code, "timeout");
  // Answered before the backend finalized the call; the tool honoured its signal.
  assert.equal(tool.delivery, "complete");
  assert.equal(tool.killed, false);
  assert.equal(tool.abandoned, false);
  assert.equal(one(result.records, "turn.finished").outcome, "completed");
});

Deno.test("run: --approve allow runs a write tool after approval", async () => {
  const result = await runCli(run("APPROVE", "--approve", "allow"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  const approval = one(result.records, "approval");
  assert.equal(approval.decision, "allow");
  assert.equal(approval.decided_by, "flag");
  assert.equal(approval.recorded, true);
  assert.equal(one(result.records, "tool.result").outcome, "success");
});

Deno.test("run: --approve deny (default) never calls a write tool", async () => {
  const result = await runCli(run("APPROVE"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  const approval = one(result.records, "approval");
  assert.equal(approval.decision, "deny");
  assert.equal(ofType(result.records, "tool.call").length, 0);
});

Deno.test("run: a failed run exits 1", async () => {
  const result = await runCli(run("FAIL"), WITH_SCENARIO);
  assert.equal(result.code, 1, result.stderr);
  const finished = one(result.records, "turn.finished");
  assert.equal(finished.outcome, "failed");
  assert.equal(finished.error_code, "execution_failed");
});

Deno.test("run: SIGINT during a tool cancels the turn and exits 130", async () => {
  const result = await runCli(run("SLEEPY"), {
    ...WITH_SCENARIO,
    onRecord: (record, interrupt) => {
      if (record.type === "tool.call") interrupt();
    },
  });
  assert.equal(result.code, 130, result.stderr);
  assert.equal(one(result.records, "tool.cancel").reason, "run_cancelled");
  assert.equal(one(result.records, "tool.result").outcome, "cancelled");
  const finished = one(result.records, "turn.finished");
  assert.equal(finished.outcome, "cancelled");
  assert.equal(finished.cancelled_by, "signal");
});

Deno.test("run: --timeout cancels a tool that ignores its signal, exit 1", async () => {
  const result = await runCli(run("STUBBORN", "--timeout", "1"), WITH_SCENARIO);
  assert.equal(result.code, 1, result.stderr);
  const finished = one(result.records, "turn.finished");
  assert.equal(finished.outcome, "cancelled");
  assert.equal(finished.cancelled_by, "timeout");
  assert.equal(one(result.records, "tool.cancel").reason, "run_cancelled");
  // The tool ignored its signal: its process was killed within the backend's cancel grace,
  // so the `cancelled` answer was still recorded.
  const tool = one(result.records, "tool.result");
  assert.equal(tool.outcome, "cancelled");
  assert.equal(tool.killed, true);
  assert.equal(tool.abandoned, false);
  assert.equal(tool.delivery, "complete");
});

Deno.test("run: a second SIGINT kills a backend that does not finish, exit 130", async () => {
  const pidFile = await Deno.makeTempFile();
  let sent = 0;
  try {
    const result = await runCli(run("hello", "--agent", fakeAgent("stall_run")), {
      env: { FAKE_PID_FILE: pidFile },
      onRecord: (record, interrupt) => {
        if (record.type === "turn.started") {
          interrupt();
          sent++;
          // The second Ctrl-C must come after SIGINT_COALESCE_MS (500 ms) to count: a minimum,
          // not a synchronisation (stall_run never finishes, so nothing races it).
          setTimeout(() => {
            interrupt();
            sent++;
          }, 1_000);
        }
      },
      killAfterMs: 20_000,
    });
    assert.equal(sent, 2);
    assert.equal(result.code, 130, result.stderr);
    assert.equal(ofType(result.records, "turn.finished").length, 0);
    // stdout still ends with a final record.
    const last = result.records.at(-1);
    assert.equal(last?.type, "host.error");
    assert.equal(last?.code, "interrupted");
    assert.equal(last?.exit_code, 130);
    const pid = Number(await Deno.readTextFile(pidFile));
    assert.ok(pid > 0);
    await assert.rejects(Deno.stat(`/proc/${pid}`), Deno.errors.NotFound, "backend still running");
  } finally {
    await Deno.remove(pidFile);
  }
});

Deno.test("run: a backend crashing mid-run exits 4 with host.error", async () => {
  const result = await runCli(run("hello", "--agent", fakeAgent("crash")));
  assert.equal(result.code, 4, result.stderr);
  const error = one(result.records, "host.error");
  assert.equal(error.code, "backend_exited");
  assert.match(String(error.message), /code 3/);
});

// "A backend stalling after cancel is killed, exit 4": on fake time in tests/run/host_run_test.ts.

Deno.test("run: a backend that breaks the protocol exits 4 with host.error", async () => {
  const result = await runCli(run("hello", "--agent", fakeAgent("unknown_event")));
  assert.equal(result.code, 4, result.stderr);
  const error = one(result.records, "host.error");
  assert.equal(error.code, "protocol_violation");
  assert.equal(error.exit_code, 4);
});

Deno.test("run: a backend registering other tool IDs exits 4", async () => {
  const result = await runCli(run("hello", "--agent", fakeAgent("descriptor_mismatch")));
  assert.equal(result.code, 4, result.stderr);
  assert.equal(one(result.records, "host.error").code, "descriptor_mismatch");
  assert.equal(ofType(result.records, "host.ready").length, 0);
});

// "An unknown --session exits 1": first_contact_test.ts pins the same run and its whole message.

Deno.test("run: SIGINT during startup shuts the backend down and exits 130", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-e2e-init-" });
  try {
    // SIGINT once the backend has the initialize request: the host is waiting for its answer.
    const initFile = `${dir}/initialize`;
    const result = await runCli(run("hello", "--agent", fakeAgent("slow_init")), {
      env: { FAKE_INIT_FILE: initFile },
      interruptOnFile: initFile,
      killAfterMs: 20_000,
    });
    assert.equal(result.code, 130, result.stderr);
    assert.equal(result.records.length, 0);
    assert.equal(await Deno.readTextFile(initFile), "initialize", "interrupted during initialize");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: --session resumes the durable session of an earlier run", async () => {
  const home = await Deno.makeTempDir({ prefix: "magi-tools-e2e-home-" });
  try {
    const first = await runCli(run("first prompt"), { home });
    assert.equal(first.code, 0, first.stderr);
    const sessionId = String(one(first.records, "input.persisted").session_id);
    const second = await runCli(run("second prompt", "--session", sessionId), { home });
    assert.equal(second.code, 0, second.stderr);
    const session = one(second.records, "session");
    assert.equal(session.session_id, sessionId);
    assert.equal(session.resumed, true);
    assert.equal(session.durable, true);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

const HAS_SCRIPT = (() => {
  try {
    return Deno.statSync("/usr/bin/script").isFile;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "run: --approve ask prompts on the terminal and a 'y' allows the call",
  ignore: !HAS_SCRIPT,
  async fn() {
    // script(1) gives the CLI a pseudo-terminal; its stdin is typed into it.
    const child = new Deno.Command("/usr/bin/script", {
      args: [
        "-qec",
        `${Deno.execPath()} run -A ${ROOT}mod.ts run --format ndjson --tools ${FIXTURE_TOOLS} --approve ask APPROVE`,
        "/dev/null",
      ],
      cwd: ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: {
        NO_COLOR: "1",
        MAGI_SCENARIO: SCENARIO,
        MAGI_CODE_AGENT:
          `${Deno.execPath()} run -A ${ROOT}src/reference_backend/main.ts serve --stdio`,
      },
    }).spawn();
    const writer = child.stdin.getWriter();
    const decoder = new TextDecoder();
    let seen = "";
    let answered = false;
    const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
    for await (const chunk of child.stdout) {
      seen += decoder.decode(chunk, { stream: true });
      if (seen.includes("[y/N]") && !answered) {
        answered = true;
        await writer.write(new TextEncoder().encode("y\r"));
      }
    }
    await writer.close().catch(() => {});
    await child.stderr.cancel();
    const status = await child.status;
    clearTimeout(guard);
    assert.equal(status.code, 0, seen);
    // The person's answer, given when the call arrived (the backend's approval is the host's).
    const approval = seen.split(/\r?\n/).find((line) =>
      line.startsWith('{"type":"approval"') && line.includes('"call_id"')
    );
    assert.ok(approval !== undefined, seen);
    const record = JSON.parse(approval);
    assert.equal(record.decision, "allow");
    assert.equal(record.decided_by, "user");
    assert.match(seen, /"type":"tool\.result".*"outcome":"success"/);
  },
});
