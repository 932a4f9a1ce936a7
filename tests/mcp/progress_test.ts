/** Issue 35 item 5: a module tool's `ctx.progress` reaches an MCP client that asked for it. */

import assert from "node:assert/strict";
import {
  CallToolResultSchema,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from "@modelcontextprotocol/sdk/types.js";
import { ROOT } from "../e2e/_cli.ts";
import { startMcpStdio } from "./_stdio.ts";
import { drainMicrotasks } from "../_kit/mod.ts";

const LIVE_TOOLS = `${ROOT}tests/e2e/fixtures/live_tools`;

for (const name of ["steps", "steps_inline"]) {
  Deno.test(`mcp: ${name}'s ctx.progress arrives as notifications/progress`, async () => {
    const mcp = await startMcpStdio(LIVE_TOOLS);
    let stderr = "";
    try {
      // What the server wrote, seen at the transport before the SDK's protocol layer: the SDK
      // client runs a notification's handler a microtask later but drops the request's progress
      // handler when the response is handled, so progress that arrives in the same read as the
      // response never reaches `onprogress` (more often on a loaded machine).
      const transport = mcp.client.transport!;
      const handle = transport.onmessage!;
      const wire: { progress: number; total?: number; message?: string }[] = [];
      transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
        if ("method" in message && message.method === "notifications/progress") {
          wire.push(message.params as (typeof wire)[number]);
        }
        handle(message, extra);
      };
      const seen: typeof wire = [];
      const result = await mcp.client.callTool(
        { name, arguments: {} },
        CallToolResultSchema,
        { onprogress: (progress: (typeof seen)[number]) => seen.push(progress) },
      );
      assert.equal(result.isError, undefined);
      // Every notification is written before the result.
      assert.deepEqual(wire.map((p) => [p.progress, p.total]), [[1, 3], [2, 3], [3, 3]]);
      assert.ok(wire.every((p) => typeof p.message === "string" && p.message !== ""));
      // What the SDK handed to `onprogress` is those, in order, up to the response's read.
      await drainMicrotasks();
      const fields = (p: (typeof wire)[number]) => [p.progress, p.total, p.message];
      assert.deepEqual(seen.map(fields), wire.slice(0, seen.length).map(fields));
    } finally {
      stderr = await mcp.close();
    }
    assert.doesNotMatch(stderr, /progress callback failed/i);
  });
}
