/**
 * Faults through the CLI (issue 33): a backend that never answers `initialize` meets the start
 * deadline (`--start-timeout`), and SIGTERM stops `run` as SIGINT does, with exit 143.
 */

import assert from "node:assert/strict";
import { fakeAgent, FULL_CLI, ROOT } from "./_cli.ts";
import { cli as kitCli } from "../_kit/mod.ts";
import { alive } from "../_kit/proc.ts";

/** Run the CLI with `args` (the kit's runner); `onLine` sees each stdout record with the child. */
async function cli(
  args: string[],
  env: Record<string, string>,
  onLine: (line: Record<string, unknown>, child: Deno.ChildProcess) => void = () => {},
): Promise<{ code: number; lines: Record<string, unknown>[]; stderr: string }> {
  const { code, records, stderr } = await kitCli(args, {
    env,
    records: true,
    onRecord: (record, _interrupt, child) => onLine(record, child),
  });
  return { code, lines: records, stderr };
}

Deno.test("run: a backend that never answers initialize meets --start-timeout: exit 3 naming the deadline, backend reaped", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-start-" });
  try {
    const pidFile = `${dir}/pid`;
    // `stall` never writes a byte and ignores SIGTERM.
    const result = await cli(
      [
        "run",
        "hello",
        "--agent",
        fakeAgent("stall"),
        "--tools",
        `${ROOT}tests/e2e/fixtures/tools`,
        "--start-timeout",
        "1",
      ],
      { FAKE_PID_FILE: pidFile },
    );
    assert.equal(result.code, 3, result.stderr);
    const error = result.lines.find((l) => l.type === "host.error");
    assert.ok(error !== undefined, JSON.stringify(result.lines));
    assert.equal(error.code, "startup_failed");
    assert.match(String(error.message), /did not answer initialize within 1 s.*--start-timeout/);
    assert.equal(error.exit_code, 3);
    const pid = Number(await Deno.readTextFile(pidFile));
    assert.equal(alive(pid), false, `backend ${pid} still running`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: --start-timeout rejects a value that is not seconds", async () => {
  const result = await cli(["run", "hello", "--start-timeout", "soon"], {});
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--start-timeout/);
});

Deno.test("run: SIGTERM mid-turn cancels the turn gracefully, reaps the backend and exits 143", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-term-" });
  try {
    const pidFile = `${dir}/pid`;
    let sent = false;
    const result = await cli(
      [
        "run",
        "hello",
        "--agent",
        fakeAgent("tool_call"),
        "--tools",
        `${ROOT}tests/e2e/fixtures/sleepy_only`,
      ],
      { FAKE_PID_FILE: pidFile, FAKE_ARGS: JSON.stringify({ ms: 600_000 }) },
      (line, child) => {
        // Mid-turn: the tool is running.
        if (line.type === "tool.call" && !sent) {
          sent = true;
          child.kill("SIGTERM");
        }
      },
    );
    assert.ok(sent, "the tool was never called");
    assert.equal(result.code, 143, result.stderr);
    const finished = result.lines.find((l) => l.type === "turn.finished");
    assert.ok(finished !== undefined, JSON.stringify(result.lines));
    assert.equal(finished.outcome, "cancelled");
    assert.equal(finished.exit_code, 143);
    const tool = result.lines.find((l) => l.type === "tool.result");
    assert.equal(tool?.outcome, "cancelled");
    const pid = Number(await Deno.readTextFile(pidFile));
    assert.equal(alive(pid), false, `backend ${pid} still running`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("call and mcp: a tool source that never answers meets --start-timeout (exit 2 naming it), nothing left running", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-src-" });
  try {
    const pidFile = `${dir}/server.pid`;
    // A stdio "server" that records its PID and never answers initialize.
    await Deno.writeTextFile(
      `${dir}/magi-tools.jsonc`,
      JSON.stringify({
        mcpServers: {
          mute: { command: "sh", args: ["-c", `echo $$ > ${pidFile}; exec sleep 600`] },
        },
      }),
    );
    for (const args of [["call", "mute_x", "{}"], ["mcp"]]) {
      const home = await Deno.makeTempDir();
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", ...FULL_CLI, "-A", `${ROOT}mod.ts`, ...args, "--start-timeout", "1"],
        cwd: dir,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1", MC_HOME: home, MAGI_TOOLS_TRUST_CONFIG: "1" },
      });
      const result = await child.output();
      await Deno.remove(home, { recursive: true });
      const stderr = new TextDecoder().decode(result.stderr);
      assert.equal(result.code, 2, `${args[0]}: ${stderr}`);
      assert.match(stderr, /MCP server mute failed to start.*timed out/, stderr);
      const pid = Number((await Deno.readTextFile(pidFile)).trim());
      assert.equal(alive(pid), false, `${args[0]}: server ${pid} still running`);
      await Deno.remove(pidFile);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
