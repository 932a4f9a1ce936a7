/**
 * Issue 26 item 4: Claude Code opens with `server/discover` (protocol `2026-07-28`) and falls
 * back to `initialize` `2025-11-25` after JSON-RPC `-32601`. Over raw stdio pipes (the SDK
 * client never sends `server/discover`), so the test keeps holding as the SDK moves: the first
 * request gets `-32601`, then `initialize` with `2025-11-25` is answered with that version and
 * the session works.
 */

import assert from "node:assert/strict";
import { FULL_CLI, ROOT } from "../e2e/_cli.ts";

const TOOLS = `${ROOT}tests/mcp/fixtures/door_tools`;

Deno.test("mcp over stdio: server/discover gets -32601, then initialize 2025-11-25 works", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, "mcp", "--no-config", "--tools", TOOLS],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const kill = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const send = (message: unknown) =>
    writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  const answer = async (id: number): Promise<Record<string, unknown>> => {
    for (;;) {
      const end = buffered.indexOf("\n");
      if (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        const message = JSON.parse(line) as Record<string, unknown>;
        if (message["id"] === id) return message;
        continue;
      }
      const { value, done } = await lines.read();
      if (done) throw new Error(`stdout ended before the answer to ${id}`);
      buffered += value;
    }
  };
  try {
    await send({
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: {
        protocolVersion: "2026-07-28",
        capabilities: {},
        clientInfo: { name: "claude-code", version: "2.1.332" },
      },
    });
    const discover = await answer(1);
    assert.equal((discover["error"] as { code: number } | undefined)?.code, -32601);

    await send({
      jsonrpc: "2.0",
      id: 2,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "claude-code", version: "2.1.332" },
      },
    });
    const init = (await answer(2))["result"] as { protocolVersion: string };
    assert.equal(init.protocolVersion, "2025-11-25");
    await send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    const list = (await answer(3))["result"] as { tools: { name: string }[] };
    assert.ok(list.tools.some((tool) => tool.name === "strict_echo"));
  } finally {
    clearTimeout(kill);
    await writer.close().catch(() => {});
    await lines.cancel();
    assert.equal((await child.status).code, 0);
  }
});
