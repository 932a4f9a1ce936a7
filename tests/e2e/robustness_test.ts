/** Robustness of `run` over real pipes: early backend exits, stalls, output failures, messages. */
import assert from "node:assert/strict";
import { fakeAgent, FIXTURE_TOOLS, ofType, one, ROOT, runCli } from "./_cli.ts";

function run(prompt: string, ...flags: string[]): string[] {
  return ["run", "--tools", FIXTURE_TOOLS, ...flags, prompt];
}

Deno.test("run: a backend that exits at once is a startup failure (exit 3) with its exit status", async () => {
  const result = await runCli(run("hello", "--agent", "false"));
  assert.equal(result.code, 3, result.stderr);
  const error = one(result.records, "host.error");
  assert.equal(error.code, "backend_exited");
  assert.equal(error.message, "Backend exited: code 1");
  assert.equal(error.exit_code, 3);
});

Deno.test("run: a missing backend command names only its basename", async () => {
  const result = await runCli(run("hello", "--agent", "/nonexistent/dir/magi-code --token s3cret"));
  assert.equal(result.code, 3);
  const error = one(result.records, "host.error");
  assert.equal(error.code, "backend_unavailable");
  assert.doesNotMatch(String(error.message), /nonexistent|s3cret/);
  assert.match(String(error.message), /magi-code/);
});

Deno.test("run: a backend that stops answering is probed with status, then stalled (exit 4)", async () => {
  const result = await runCli(
    run("hello", "--agent", fakeAgent("stall_run"), "--stall-timeout", "0.5"),
    { killAfterMs: 30_000 },
  );
  assert.equal(result.code, 4, result.stderr);
  const error = one(result.records, "host.error");
  assert.equal(error.code, "backend_stalled");
  assert.equal(error.exit_code, 4);
  assert.equal(ofType(result.records, "turn.finished").length, 0);
});

Deno.test("run: --stall-timeout rejects a value that is not seconds", async () => {
  const result = await runCli(run("hello", "--stall-timeout", "-1"), { raw: true });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--stall-timeout/);
});

Deno.test("run: a --last-message in a missing directory is a usage error before the turn", async () => {
  const result = await runCli(
    run("hello", "--agent", fakeAgent("ok"), "--last-message", "/nonexistent/dir/last.txt"),
  );
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(
    result.stderr,
    /Option --last-message cannot be written: \/nonexistent\/dir\/last\.txt: its directory does not exist\n/,
  );
});

Deno.test({
  name: "run: a --last-message write failing after the turn makes turn.finished and the exit " +
    "agree on 1, and says why",
  // /dev/full opens for writing (so the early check passes) and fails every write.
  ignore: Deno.build.os !== "linux",
  async fn() {
    const result = await runCli(
      run("hello", "--agent", fakeAgent("ok"), "--last-message", "/dev/full"),
    );
    assert.equal(result.code, 1, result.stderr);
    const finished = one(result.records, "turn.finished");
    assert.equal(finished.exit_code, 1);
    assert.equal(finished.outcome, "completed");
    assert.equal(finished.exit_reason, "last_message_unwritable");
    assert.match(
      result.stderr,
      /Cannot write --last-message file: \/dev\/full: No space left on device\n/,
    );
    assert.doesNotMatch(result.stderr, /--allow/);
  },
});

Deno.test("run: a prompt on stdin that is not UTF-8 is a usage error naming the encoding", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}mod.ts`, "run", "--tools", FIXTURE_TOOLS],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", MAGI_CODE_AGENT: fakeAgent("ok") },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new Uint8Array([0x68, 0xff, 0xfe, 0x69]));
  await writer.close();
  const output = await child.output();
  assert.equal(output.code, 2);
  assert.match(new TextDecoder().decode(output.stderr), /Prompt on stdin is not valid UTF-8/);
  assert.equal(output.stdout.length, 0);
});

Deno.test("run: a closed stdout cancels the turn quietly and exits 141 (as after SIGPIPE)", async () => {
  // The fake backend floods 2,000 deltas (far more than a pipe holds) and then waits for a
  // turn.cancel that only a host noticing its broken stdout sends.
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `${ROOT}mod.ts`,
      ...run("hello", "--deltas", "--agent", fakeAgent("flood")),
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const stderr = new Response(child.stderr).text();
  // Read one chunk, then close the read end like `head -c 10` does.
  const reader = child.stdout.getReader();
  await reader.read();
  await reader.cancel();
  const guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const status = await child.status;
  clearTimeout(guard);
  const text = await stderr;
  assert.equal(status.code, 141, text);
  assert.doesNotMatch(text, /Cannot write summaries to stdout/);
});

const ROBUST_TOOLS = `${ROOT}tests/e2e/fixtures/robust_tools`;
const ROBUST = { env: { MAGI_SCENARIO: `${ROOT}tests/e2e/fixtures/scenarios/robust.jsonc` } };

function robust(prompt: string): string[] {
  return ["run", "--tools", ROBUST_TOOLS, prompt];
}

for (const [prompt, exit] of [["RUDE_DENO", 7], ["RUDE_PROCESS", 8]] as const) {
  Deno.test(`run: an inline tool's raw stdout goes to stderr and its exit(${exit}) fails the call (${prompt})`, async () => {
    const result = await runCli(robust(prompt), ROBUST);
    // runCli parsed every stdout line as a summary record: nothing else reached stdout.
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /RAW/);
    assert.match(result.stderr, /RAW-STDOUT\nRAW-STDOUT\nRAW-PROCESS-STDOUT/);
    const tool = one(result.records, "tool.result");
    assert.equal(tool.outcome, "error");
    assert.equal(tool.error_code, "tool_failed");
    assert.equal(tool.delivery, "complete");
    assert.equal(one(result.records, "turn.finished").exit_code, 0);
  });
}

Deno.test("run: an inline tool's exit from a stray callback is reported and the host goes on", async () => {
  const result = await runCli(robust("RUDE_LATER"), ROBUST);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /a tool must not end the host process/);
  assert.equal(one(result.records, "tool.result").outcome, "success");
  assert.equal(one(result.records, "turn.finished").outcome, "completed");
});

Deno.test("run: a throwing tool is answered tool_failed with its message only", async () => {
  const result = await runCli(robust("THROW"), ROBUST);
  assert.equal(result.code, 0, result.stderr);
  const tool = one(result.records, "tool.result");
  assert.equal(tool.error_code, "tool_failed");
  assert.equal(tool.delivery, "complete");
  const text = String(one(result.records, "message").text);
  assert.match(text, /disk on fire/);
  assert.doesNotMatch(text, /at .*thrower\.ts/, "no stack trace to the model");
  assert.match(result.stderr, /thrower\.ts/, "the stack goes to stderr");
});

Deno.test("run: arguments that do not fit the schema are answered invalid_arguments, nothing runs", async () => {
  const result = await runCli(robust("BADARGS"), ROBUST);
  assert.equal(result.code, 0, result.stderr);
  const tool = one(result.records, "tool.result");
  assert.equal(tool.error_code, "invalid_arguments");
  assert.equal(tool.delivery, "complete");
  assert.match(String(one(result.records, "message").text), /message: required/);
});

Deno.test("run: a call naming an unregistered tool is answered unknown_tool over real pipes", async () => {
  const agent = fakeAgent("tool_call");
  const result = await runCli(["run", "--tools", ROBUST_TOOLS, "--agent", agent, "hello"], {
    env: {
      FAKE_ARGS: JSON.stringify({ message: "never runs" }),
      FAKE_RENAME_CALLS: "not_registered",
    },
  });
  assert.equal(result.code, 0, result.stderr);
  const tool = one(result.records, "tool.result");
  assert.equal(tool.name, "not_registered");
  assert.equal(tool.outcome, "error");
  assert.equal(tool.error_code, "unknown_tool");
  assert.equal(tool.delivery, "complete");
  assert.doesNotMatch(result.stderr, /never runs/);
});

Deno.test("run: an inline tool ignoring its signal is abandoned and answered cancelled in time", async () => {
  const result = await runCli([
    ...robust("STUBBORN_INLINE").slice(0, -1),
    "--timeout",
    "1",
    "STUBBORN_INLINE",
  ], ROBUST);
  assert.equal(result.code, 1, result.stderr);
  const tool = one(result.records, "tool.result");
  assert.equal(tool.outcome, "cancelled");
  assert.equal(tool.abandoned, true);
  assert.equal(tool.killed, false);
  assert.equal(tool.delivery, "complete");
  assert.equal(one(result.records, "turn.finished").cancelled_by, "timeout");
});
