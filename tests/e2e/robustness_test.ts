/** Robustness of `run` over real pipes: early backend exits, stalls, output failures, messages. */
import assert from "node:assert/strict";
import {
  fakeAgent,
  FIXTURE_TOOLS,
  ofType,
  one,
  REFERENCE_AGENT,
  ROOT,
  runCli,
  SCENARIO,
} from "./_cli.ts";

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

Deno.test("run: an unwritable --last-message makes turn.finished and the exit agree on 1", async () => {
  const result = await runCli(
    run("hello", "--agent", fakeAgent("ok"), "--last-message", "/nonexistent/dir/last.txt"),
  );
  assert.equal(result.code, 1, result.stderr);
  assert.equal(one(result.records, "turn.finished").exit_code, 1);
  assert.match(
    result.stderr,
    /Cannot write --last-message file: \/nonexistent\/dir\/last\.txt: No such file or directory\n/,
  );
  assert.doesNotMatch(result.stderr, /--allow/);
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

Deno.test("run: a closed stdout cancels the turn (a 30 s tool) and exits 1", async () => {
  const home = await Deno.makeTempDir({ prefix: "magi-tools-e2e-" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}mod.ts`, ...run("SLEEPY")],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: {
        NO_COLOR: "1",
        MC_HOME: home,
        MAGI_CODE_AGENT: REFERENCE_AGENT,
        MAGI_SCENARIO: SCENARIO,
      },
    }).spawn();
    const stderr = new Response(child.stderr).text();
    // Read until the tool runs (a 30 s sleep), then close the read end like `head` does.
    const reader = child.stdout.getReader();
    let seen = "";
    while (!seen.includes('"tool.call"')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    await reader.cancel();
    const guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
    const status = await child.status;
    clearTimeout(guard);
    const text = await stderr;
    assert.equal(status.code, 1, text);
    assert.match(text, /Cannot write summaries to stdout/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
