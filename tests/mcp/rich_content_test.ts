/**
 * Issue 35 item 3: rich results (image, audio, resource link). Over MCP (the official SDK client,
 * `mcp` over stdio) a module tool's image and a re-exported upstream server's image arrive as MCP
 * image content; through `run` (the reference backend, text only) the image is a file named in
 * the result text.
 */
import assert from "node:assert/strict";
import { ROOT, runCli } from "../e2e/_cli.ts";
import { denoServer, FIXTURE_SERVER } from "./_config.ts";
import { startMcpStdio } from "./_stdio.ts";
import { PNG } from "../e2e/fixtures/rich_tools/chart.ts";

const TOOLS = `${ROOT}tests/e2e/fixtures/rich_tools`;
const PNG_BASE64 = btoa(String.fromCharCode(...PNG));

Deno.test("mcp: a module tool's content(text, image) arrives as text and image content", async () => {
  const mcp = await startMcpStdio(TOOLS);
  try {
    const result = await mcp.client.callTool({ name: "chart", arguments: {} });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.content, [
      { type: "text", text: "A 1x1 chart:" },
      { type: "image", data: PNG_BASE64, mimeType: "image/png" },
    ]);
  } finally {
    await mcp.close();
  }
});

Deno.test("mcp: an image over the tool's maxResultBytes (decoded bytes) is result_too_large", async () => {
  const mcp = await startMcpStdio(TOOLS);
  try {
    const result = await mcp.client.callTool({ name: "huge_image", arguments: {} });
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{
      type: "text",
      text: "Result too large: 3000 bytes exceeds the limit of 2000 bytes",
    }]);
  } finally {
    await mcp.close();
  }
});

Deno.test("mcp: an upstream MCP server's image passes through without flattening", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-rich-" });
  try {
    const servers = `${dir}/servers.json`;
    await Deno.writeTextFile(
      servers,
      JSON.stringify({
        mcpServers: { fx: denoServer(FIXTURE_SERVER, { env: { FIXTURE_LONG_RESULT: "1" } }) },
      }),
    );
    const mcp = await startMcpStdio(TOOLS, ["--mcp-config", servers, "--approve", "allow"]);
    try {
      const result = await mcp.client.callTool({ name: "fx_picture", arguments: {} });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.content, [
        { type: "text", text: "A picture:" },
        { type: "image", data: PNG_BASE64, mimeType: "image/png" },
      ]);
    } finally {
      await mcp.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: the image of a rich result is saved to a file the result text names", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "magi-tools-rich-" });
  try {
    const result = await runCli(["run", "--no-config", "--tools", TOOLS, "chart {}"], { cwd });
    assert.equal(result.code, 0, result.stderr);
    const done = result.records.find((r) => r.type === "tool.result");
    assert.equal(done?.["outcome"], "success");
    const message = result.records.find((r) => r.type === "message");
    const text = String(message?.["text"]);
    const match = /\[image: image\/png, 70 bytes, saved to the file (\S+\.png)\]/.exec(text);
    assert.ok(match, text);
    assert.ok(text.includes("A 1x1 chart:"));
    assert.ok(match[1]!.includes("/.magi-tools/results/"), match[1]);
    assert.deepEqual(await Deno.readFile(match[1]!), PNG);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
