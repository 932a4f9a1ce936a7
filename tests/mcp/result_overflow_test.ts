/**
 * Issue 35 item 4 over MCP (the official SDK client, `mcp` over stdio): a tool's own
 * `maxResultBytes`/`overflow`, and the server's `--max-result-bytes`/`--overflow` defaults.
 */
import assert from "node:assert/strict";
import { ROOT } from "../e2e/_cli.ts";
import { startMcpStdio } from "./_stdio.ts";

const TOOLS = `${ROOT}tests/e2e/fixtures/overflow_tools`;
const utf8 = (text: string) => new TextEncoder().encode(text).length;

interface TextResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

async function callTool(args: string[], name: string, bytes: number) {
  const mcp = await startMcpStdio(TOOLS, args);
  try {
    return await mcp.client.callTool({ name, arguments: { bytes } }) as TextResult;
  } finally {
    await mcp.close();
  }
}

Deno.test("mcp: a 200 KB result of a truncate tool arrives cut, with the marker and _meta", async () => {
  const result = await callTool([], "cut", 200_000);
  assert.equal(result.isError, undefined);
  assert.equal(result.content.length, 1);
  const text = result.content[0]!.text!;
  assert.ok(utf8(text) <= 50_000, `${utf8(text)} bytes`);
  assert.ok(text.startsWith("HEAD") && text.endsWith("TAIL"));
  assert.match(text, /\[… \d+ of 200000 bytes left out here: .*limit of 50000 bytes/);
  const meta = result._meta?.["magi-tools/overflow"] as Record<string, unknown>;
  assert.equal(meta["policy"], "truncate");
  assert.equal(meta["bytes"], 200_000);
});

Deno.test("mcp --max-result-bytes --overflow truncate bounds a tool that declares nothing", async () => {
  const result = await callTool(
    ["--max-result-bytes", "30000", "--overflow", "truncate"],
    "plain",
    200_000,
  );
  assert.equal(result.isError, undefined);
  const text = result.content[0]!.text!;
  assert.ok(utf8(text) <= 30_000, `${utf8(text)} bytes`);
  assert.match(text, /bytes left out here: .*limit of 30000 bytes/);
});

Deno.test("mcp --max-result-bytes alone: over it is result_too_large; a tool's own bound wins", async () => {
  const over = await callTool(["--max-result-bytes", "30000"], "plain", 200_000);
  assert.equal(over.isError, true);
  assert.equal(
    over.content[0]!.text,
    "Result too large: 200000 bytes exceeds the limit of 30000 bytes",
  );
  // `cut` declares 50,000 and truncate: the server's defaults do not apply to it.
  const own = await callTool(["--max-result-bytes", "30000"], "cut", 45_000);
  assert.equal(own.isError, undefined);
  assert.equal(utf8(own.content[0]!.text!), 45_000);
});

Deno.test("mcp without the flags: a 200 KB result of a tool with no bound is sent whole", async () => {
  const result = await callTool([], "plain", 200_000);
  assert.equal(result.isError, undefined);
  assert.equal(utf8(result.content[0]!.text!), 200_000);
  assert.equal(result._meta, undefined);
});
