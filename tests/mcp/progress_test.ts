/** Issue 35 item 5: a module tool's `ctx.progress` reaches an MCP client that asked for it. */

import assert from "node:assert/strict";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { ROOT } from "../e2e/_cli.ts";
import { startMcpStdio } from "./_stdio.ts";
import { eventually } from "../_wait.ts";

const LIVE_TOOLS = `${ROOT}tests/e2e/fixtures/live_tools`;

for (const name of ["steps", "steps_inline"]) {
  Deno.test(`mcp: ${name}'s ctx.progress arrives as notifications/progress`, async () => {
    const mcp = await startMcpStdio(LIVE_TOOLS);
    let stderr = "";
    try {
      const seen: { progress: number; total?: number; message?: string }[] = [];
      const result = await mcp.client.callTool(
        { name, arguments: {} },
        CallToolResultSchema,
        { onprogress: (progress: (typeof seen)[number]) => seen.push(progress) },
      );
      assert.equal(result.isError, undefined);
      // The server writes every notification before the result; the SDK client dispatches
      // notifications a microtask later than responses, so the last may land just after.
      await eventually(() => seen.length >= 3, 5_000);
      assert.deepEqual(seen.map((p) => [p.progress, p.total]), [[1, 3], [2, 3], [3, 3]]);
      assert.ok(seen.every((p) => typeof p.message === "string" && p.message !== ""));
    } finally {
      stderr = await mcp.close();
    }
    assert.doesNotMatch(stderr, /progress callback failed/i);
  });
}
