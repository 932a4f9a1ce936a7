/**
 * The MCP source on its own (`startMcpSource`) against the fixture server:
 * a cancel reaches the server as `notifications/cancelled`, and after the
 * server died every call of its tools answers `tool_unavailable`.
 */

import assert from "node:assert/strict";
import type { McpServerConfig } from "../../src/config/mod.ts";
import { type ExternalToolContext, ExternalToolError } from "../../src/tool/external.ts";
import { startMcpSource } from "../../src/mcp/source.ts";
import { DEV_CONFIG } from "../e2e/_cli.ts";
import { FIXTURE_SERVER } from "./_config.ts";
import { fileBecomes } from "../_wait.ts";

const CONFIG: McpServerConfig = {
  name: "fx",
  transport: {
    kind: "stdio",
    command: Deno.execPath(),
    args: ["run", ...DEV_CONFIG, "-A", FIXTURE_SERVER],
    env: {},
  },
  exclude: [],
  effects: {},
  descriptions: {},
  prefix: "fx_",
  enabled: true,
  optional: false,
};

function ctx(signal: AbortSignal): ExternalToolContext {
  return {
    signal,
    callId: "c1",
    sessionId: "s",
    runId: "r",
    deadline: Date.now() + 30_000,
    cwd: Deno.cwd(),
    attempt: 1,
    progress: () => {},
  };
}

Deno.test("MCP source: an aborted call reaches the server as notifications/cancelled", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-cancel-" });
  const marker = `${dir}/marker`;
  const source = await startMcpSource(CONFIG, { cwd: Deno.cwd() });
  try {
    const tool = source.tools.find((t) => t.name === "fx_wait_cancel")!;
    assert.equal(tool.effect, "write", "no readOnlyHint: write");
    const controller = new AbortController();
    const call = tool.run({ marker }, ctx(controller.signal));
    // Cancelled while the server runs the tool (not before the call reached it).
    assert.equal(await fileBecomes(marker, "started"), "started");
    controller.abort();
    await assert.rejects(call);
    assert.equal(await fileBecomes(marker, "cancelled"), "cancelled");
  } finally {
    await source.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("MCP source: after the server died, every call answers tool_unavailable (no restart)", async () => {
  const exits: string[] = [];
  const source = await startMcpSource(CONFIG, {
    cwd: Deno.cwd(),
    onExit: (server, message) => exits.push(`${server}: ${message}`),
  });
  try {
    const byName = Object.fromEntries(source.tools.map((t) => [t.name, t]));
    const signal = new AbortController().signal;
    await assert.rejects(byName["fx_die"]!.run({}, ctx(signal)), (error: unknown) => {
      assert.ok(error instanceof ExternalToolError);
      assert.equal(error.code, "tool_unavailable");
      return true;
    });
    for (const name of ["fx_fail", "fx_slow_ok", "fx_die"]) {
      await assert.rejects(byName[name]!.run({}, ctx(signal)), (error: unknown) => {
        assert.ok(error instanceof ExternalToolError);
        assert.equal(error.code, "tool_unavailable");
        assert.match(error.message, /^MCP server fx exited \(code 7\); its tools are unavailable/);
        return true;
      });
    }
    assert.equal(exits.length, 1, "one exit notice");
    assert.match(exits[0]!, /^fx: MCP server fx exited \(code 7\)/);
  } finally {
    await source.close();
  }
});

Deno.test("MCP source: effects and descriptions naming a missing tool fail the start", async () => {
  await assert.rejects(
    startMcpSource({ ...CONFIG, effects: { nope: "read" } }, { cwd: Deno.cwd() }),
    /mcpServers\.fx\.effects\.nope: MCP server fx has no tool nope \(it has: hang, die, fail, slow_ok, wait_cancel\)/,
  );
});
