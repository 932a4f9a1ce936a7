/**
 * `run … | head -1` (issue 32, item 7): a reader that closes stdout early stops the turn
 * quietly — no "Cannot write summaries to stdout: Broken pipe" — and `run` exits 141, as a
 * process ended by SIGPIPE does (docs/cli.md, exit codes).
 */
import assert from "node:assert/strict";
import { FIXTURE_TOOLS, FULL_CLI, ROOT } from "./_cli.ts";

Deno.test("run | head -1: the turn stops quietly and run exits 141", async () => {
  const home = await Deno.makeTempDir({ prefix: "magi-broken-pipe-" });
  try {
    // The sleeping call keeps the turn going past head's exit, so later records meet a closed
    // pipe; PIPESTATUS[0] is run's own exit code.
    const cli = [Deno.execPath(), "run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, "run"]
      .map((word) => `'${word}'`).join(" ");
    const script = `${cli} --agent reference --no-config --tools '${FIXTURE_TOOLS}' ` +
      `'sleepy {"ms":1500}' 2>"$ERR" | head -1; echo "exit=\${PIPESTATUS[0]}"`;
    const err = `${home}/stderr.txt`;
    const output = await new Deno.Command("bash", {
      args: ["-c", script],
      cwd: ROOT,
      stdin: "null",
      env: { NO_COLOR: "1", MC_HOME: home, ERR: err, MAGI_CODE_AGENT: "" },
      signal: AbortSignal.timeout(90_000),
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = await Deno.readTextFile(err);
    const [first, status] = stdout.trim().split("\n");
    assert.equal(JSON.parse(first!).type, "host.ready", stdout);
    assert.equal(status, "exit=141", `stdout:\n${stdout}\nstderr:\n${stderr}`);
    assert.doesNotMatch(stderr, /Cannot write summaries/);
    assert.doesNotMatch(stderr, /Broken pipe/i);
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
});
