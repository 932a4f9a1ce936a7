/**
 * The MCP peer as its users run it: an MCP stdio server built with the
 * official SDK (`McpServer` + `StdioServerTransport`) on Node.js, serving
 * the same tools as `bench/harness/mcp_server.ts` (the Deno-run one):
 * `trivial`, `blob_60k`, `blob_1m`, each with an empty input object, or,
 * with `MCP_BENCH_TOOLS=<n>`, `n` generated tools with a one-field input
 * schema.
 *
 * Run: `node bench/node/mcp_server.mjs` (after `npm ci --prefix bench/node`).
 *
 * @module
 */

import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { countFlag, generatedDescription, payloadText, RESULT_BYTES } from "./harness.mjs";

/**
 * Build the server with its tools registered (not connected).
 *
 * @param {number | undefined} generated
 * @returns {McpServer}
 */
export function buildServer(generated) {
  const server = new McpServer({ name: "magi-bench", version: "1.0.0" });
  if (generated === undefined) {
    for (const [name, bytes] of Object.entries(RESULT_BYTES)) {
      const text = payloadText(bytes);
      server.registerTool(
        name,
        { description: `Return ${bytes} bytes of text.`, inputSchema: {} },
        () => ({ content: [{ type: "text", text }] }),
      );
    }
    return server;
  }
  for (let i = 0; i < generated; i++) {
    server.registerTool(
      `tool_${i}`,
      {
        description: generatedDescription(i),
        inputSchema: { key: z.string().describe("Record key") },
      },
      ({ key }) => ({ content: [{ type: "text", text: key }] }),
    );
  }
  return server;
}

const count = process.env.MCP_BENCH_TOOLS;
const server = buildServer(
  count === undefined ? undefined : countFlag("MCP_BENCH_TOOLS", count),
);
await server.connect(new StdioServerTransport());
