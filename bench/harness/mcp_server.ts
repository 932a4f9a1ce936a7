/**
 * The MCP peer: an MCP stdio server built with the official SDK (`McpServer`
 * + `StdioServerTransport`), serving the benchmark tools (`trivial`,
 * `blob_60k`, `blob_1m`, each with an empty strict input object) or, with
 * `MCP_BENCH_TOOLS=<n>`, `n` generated tools with a one-field input schema
 * (the same shape as the host's generated tools).
 *
 * Run: `deno run -A bench/harness/mcp_server.ts`.
 *
 * @module
 */

import { McpServer } from "npm:@modelcontextprotocol/sdk@^1/server/mcp.js";
import { StdioServerTransport } from "npm:@modelcontextprotocol/sdk@^1/server/stdio.js";
import { z } from "zod";
import { type BenchToolName, generatedDescription, payloadText, RESULT_BYTES } from "./payloads.ts";

/** Build the server with its tools registered (not connected). */
export function buildServer(generated: number | undefined): McpServer {
  const server = new McpServer({ name: "magi-bench", version: "1.0.0" });
  if (generated === undefined) {
    for (const name of Object.keys(RESULT_BYTES) as BenchToolName[]) {
      const text = payloadText(RESULT_BYTES[name]);
      server.registerTool(
        name,
        { description: `Return ${RESULT_BYTES[name]} bytes of text.`, inputSchema: {} },
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
      ({ key }: { key: string }) => ({ content: [{ type: "text", text: key }] }),
    );
  }
  return server;
}

if (import.meta.main) {
  const count = Deno.env.get("MCP_BENCH_TOOLS");
  const server = buildServer(count === undefined ? undefined : Number(count));
  await server.connect(new StdioServerTransport());
}
