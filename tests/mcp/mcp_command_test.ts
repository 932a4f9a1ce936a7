/**
 * `magi-tools mcp` driven by the SDK's `Client`: over stdio (tools/list,
 * tools/call, errors, stdout guard, notifications/cancelled) and over
 * Streamable HTTP (a session, and the Host check).
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { FULL_CLI, ROOT } from "../e2e/_cli.ts";
import { mcpArgs } from "./_stdio.ts";
import { denoServer, EVERYTHING, writeConfig } from "./_config.ts";
import { bearer, rawPost, startMcpHttp } from "./_http.ts";
import { fileBecomes } from "../_wait.ts";

const PING = { jsonrpc: "2.0", id: 1, method: "ping" };

const TOOLS = `${ROOT}tests/mcp/fixtures/tools`;

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
}
interface CallResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

async function stdioClient(errors: unknown[], extra: string[] = []) {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: mcpArgs(TOOLS, extra),
    cwd: ROOT,
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  client.onerror = (error: unknown) => errors.push(error);
  await client.connect(transport);
  return client;
}

Deno.test("mcp over stdio: tools/list, tools/call, errors, stdout carries MCP frames only", async () => {
  const errors: unknown[] = [];
  const client = await stdioClient(errors);
  try {
    const { tools } = await client.listTools() as { tools: ListedTool[] };
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual(Object.keys(byName).sort(), ["cancel_probe", "noisy"]);
    assert.equal(byName["noisy"]!.annotations?.readOnlyHint, true);
    assert.equal(byName["cancel_probe"]!.annotations?.readOnlyHint, false);
    assert.equal(byName["noisy"]!.inputSchema["type"], "object");
    assert.deepEqual(byName["noisy"]!.inputSchema["required"], ["text"]);
    assert.equal(
      byName["noisy"]!.inputSchema["$schema"],
      "https://json-schema.org/draft/2020-12/schema",
    );

    const ok = await client.callTool({ name: "noisy", arguments: { text: "hi" } }) as CallResult;
    assert.equal(ok.isError, undefined);
    assert.deepEqual(ok.content, [{ type: "text", text: '{"echoed":"hi"}' }]);
    assert.deepEqual(ok.structuredContent, { echoed: "hi" });

    const bad = await client.callTool({ name: "noisy", arguments: { text: 5 } }) as CallResult;
    assert.equal(bad.isError, true);
    assert.match(bad.content[0]!.text!, /^Invalid arguments: text: /);

    await assert.rejects(
      client.callTool({ name: "nope", arguments: {} }),
      (error: { code?: number; message: string }) => {
        assert.equal(error.code, -32602);
        assert.match(error.message, /Unknown tool: nope/);
        return true;
      },
    );
    assert.deepEqual(errors, [], "every stdout line was an MCP frame");
  } finally {
    await client.close();
  }
});

Deno.test("mcp over stdio: notifications/cancelled aborts the tool's signal", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-mcp-cancel-" });
  const marker = `${dir}/marker`;
  // cancel_probe is a write tool: allowed without asking (approval: tests/security/mcp_write_tools_test.ts).
  const client = await stdioClient([], ["--approve", "allow"]);
  try {
    const controller = new AbortController();
    const call = client.callTool({ name: "cancel_probe", arguments: { marker } }, undefined, {
      signal: controller.signal,
    });
    // Cancelled while the tool runs (not before the call reached it).
    assert.equal(await fileBecomes(marker, "started"), "started");
    controller.abort();
    await assert.rejects(call);
    assert.equal(await fileBecomes(marker, "cancelled"), "cancelled");
  } finally {
    await client.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mcp --http: an SDK client session calls a tool; a foreign Host is refused 403", async () => {
  const server = await startMcpHttp({ tools: TOOLS });
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: bearer(server.token) }),
    );
    const result = await client.callTool({
      name: "noisy",
      arguments: { text: "web" },
    }) as CallResult;
    assert.equal(result.content[0]!.text, '{"echoed":"web"}');
    await client.close();

    // fetch() will not send a foreign Host: speak HTTP/1.1 over TCP.
    assert.match(await rawPost(server.url, PING, { host: "evil.example.com" }), /^HTTP\/1\.1 403/);
    assert.match(
      await rawPost(server.url, PING, { origin: "http://evil.example.com" }),
      /^HTTP\/1\.1 403/,
    );
  } finally {
    assert.equal(await server.stop(), 0, server.stderr());
  }
});

Deno.test("mcp re-exports a configured MCP server's tools and forwards their progress", async () => {
  const config = await writeConfig({
    mcpServers: {
      everything: denoServer(EVERYTHING, {
        args: ["stdio"],
        include: ["echo", "trigger-long-running-operation"],
      }),
    },
  });
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, "mcp", "--config", config, "--tools", TOOLS],
    cwd: ROOT,
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools() as { tools: ListedTool[] };
    assert.deepEqual(tools.map((tool) => tool.name), [
      "cancel_probe",
      "noisy",
      "everything_echo",
      "everything_trigger-long-running-operation",
    ]);
    const progress: { progress: number; total?: number }[] = [];
    const result = await client.callTool(
      { name: "everything_trigger-long-running-operation", arguments: { duration: 1, steps: 2 } },
      undefined,
      { onprogress: (update: { progress: number; total?: number }) => progress.push(update) },
    ) as CallResult;
    assert.match(result.content[0]!.text!, /Long running operation completed/);
    // The SDK client (this test's) may drop a progress notification read in the same chunk as
    // the response (it handles notifications a microtask later): the first one always arrives.
    assert.deepEqual(progress[0], { progress: 1, total: 2 });
    assert.ok(progress.length <= 2 && progress.every((p, i) => p.progress === i + 1));
  } finally {
    await client.close();
  }
});
