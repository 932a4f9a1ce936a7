/**
 * Issue 33: `magi-tools mcp` over stdio when the client closes stdin. Requests read before the
 * end are still answered when they are quick; calls still running a moment later lose their
 * requester and are cancelled (the tool sees its signal fire, the call is answered
 * `Tool call cancelled`), and the process exits without running them to their deadlines. A
 * request the client cancelled is never answered and does not hold the exit. Over raw pipes,
 * so stdin can be closed with calls in flight; every wait is on a marker file or on output.
 */

import assert from "node:assert/strict";
import { ROOT } from "../e2e/_cli.ts";
import { mcpArgs } from "./_stdio.ts";
import { fileBecomes } from "../_wait.ts";

const TOOLS = `${ROOT}tests/mcp/fixtures/fault_tools`;

type Message = Record<string, unknown>;

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  },
};
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };

function call(id: number, name: string, args: Record<string, unknown>): Message {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/** `mcp` over raw pipes: send frames, close stdin, then everything it wrote and its exit. */
function startRaw() {
  const child = new Deno.Command(Deno.execPath(), {
    args: mcpArgs(TOOLS),
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const kill = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const writer = child.stdin.getWriter();
  const output = child.output();
  return {
    send: (...messages: Message[]) =>
      writer.write(
        new TextEncoder().encode(messages.map((m) => JSON.stringify(m) + "\n").join("")),
      ),
    /** Close stdin; resolves with the frames written, stderr and the exit code. */
    end: async () => {
      await writer.close();
      const { code, stdout, stderr } = await output;
      clearTimeout(kill);
      const frames = new TextDecoder().decode(stdout).split("\n").filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Message);
      return { code, frames, stderr: new TextDecoder().decode(stderr) };
    },
  };
}

function answerTo(frames: Message[], id: number): Message | undefined {
  return frames.find((frame) => frame["id"] === id && !("method" in frame));
}

function resultText(frame: Message | undefined): [boolean | undefined, string | undefined] {
  const result = frame?.["result"] as
    | { isError?: boolean; content: { text?: string }[] }
    | undefined;
  return [result?.isError, result?.content[0]?.text];
}

Deno.test("mcp over stdio: requests read just before stdin ends are answered (printf | mcp)", async () => {
  const mcp = startRaw();
  await mcp.send(INITIALIZE, INITIALIZED, call(2, "echo", { text: "piped" }));
  const { code, frames, stderr } = await mcp.end();
  assert.equal(code, 0, stderr);
  assert.ok(answerTo(frames, 1)?.["result"], JSON.stringify(frames));
  assert.deepEqual(resultText(answerTo(frames, 2)), [undefined, "piped"]);
});

Deno.test("mcp over stdio: closing stdin mid-call cancels the call, answers it and exits", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-mcp-eof-" });
  try {
    const mcp = startRaw();
    await mcp.send(INITIALIZE, INITIALIZED, call(2, "hold", { marker: `${dir}/held` }));
    assert.equal(await fileBecomes(`${dir}/held`, "started"), "started");
    const { code, frames, stderr } = await mcp.end();
    assert.equal(code, 0, stderr);
    // The tool saw its signal fire, and the call was answered rather than left to its deadline.
    assert.equal(await Deno.readTextFile(`${dir}/held`), "cancelled");
    assert.deepEqual(resultText(answerTo(frames, 2)), [true, "Tool call cancelled"]);
    assert.doesNotMatch(stderr, /still unanswered/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mcp over stdio: a request cancelled before stdin ends does not hold the exit", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-mcp-eof-" });
  try {
    const mcp = startRaw();
    await mcp.send(
      INITIALIZE,
      INITIALIZED,
      call(2, "hold", { marker: `${dir}/cancelled` }),
      call(3, "hold", { marker: `${dir}/running` }),
    );
    assert.equal(await fileBecomes(`${dir}/cancelled`, "started"), "started");
    assert.equal(await fileBecomes(`${dir}/running`, "started"), "started");
    await mcp.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 2, reason: "user" },
    });
    assert.equal(await fileBecomes(`${dir}/cancelled`, "cancelled"), "cancelled");
    const { code, frames, stderr } = await mcp.end();
    assert.equal(code, 0, stderr);
    // The cancelled request is never answered (MCP), and the server did not wait for it: it
    // closed with nothing unanswered, after answering the call that was still running.
    assert.equal(answerTo(frames, 2), undefined);
    assert.deepEqual(resultText(answerTo(frames, 3)), [true, "Tool call cancelled"]);
    assert.equal(await Deno.readTextFile(`${dir}/running`), "cancelled");
    assert.doesNotMatch(stderr, /still unanswered/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
