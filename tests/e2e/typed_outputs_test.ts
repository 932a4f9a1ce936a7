/**
 * Typed outputs, titles and annotations through the CLI: `output` in `defineTool` becomes
 * `output_schema` in `tools --json` and `outputSchema` in `mcp`'s `tools/list` (the official
 * MCP SDK client validates `structuredContent` against it); results are validated before they
 * leave (`invalid_output` naming the path); `call --json` carries the structured value.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { FULL_CLI, ROOT, runCli } from "./_cli.ts";

const TOOLS = `${ROOT}tests/e2e/fixtures/typed_tools`;

interface Listed {
  name: string;
  title?: string;
  annotations?: Record<string, boolean>;
  output_schema?: { type: string; properties: Record<string, unknown> };
}

Deno.test("tools --json: title, the full annotation set and output_schema", async () => {
  const result = await runCli(["tools", "--tools", TOOLS, "--json"], { raw: true });
  assert.equal(result.code, 0, result.stderr);
  const byName = Object.fromEntries(
    (JSON.parse(result.stdout) as Listed[]).map((tool) => [tool.name, tool]),
  );
  const list = byName["list_items"]!;
  assert.equal(list.title, "List items");
  assert.equal(list.output_schema?.type, "object");
  assert.deepEqual(Object.keys(list.output_schema?.properties ?? {}), ["items", "count"]);
  assert.deepEqual(list.annotations, {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
  // The author's annotations win; the rest come from effect: write.
  assert.deepEqual(byName["save_note"]!.annotations, {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
  assert.equal(byName["save_note"]!.title, "Save a note");
  assert.equal("title" in byName["count_words"]!, false);
});

Deno.test("call --json: the structured value; a result off its schema is invalid_output naming the path", async () => {
  const ok = await runCli(["call", "list_items", "{}", "--tools", TOOLS, "--json"], { raw: true });
  assert.equal(ok.code, 0, ok.stderr);
  const record = JSON.parse(ok.stdout);
  assert.deepEqual(record.structured, {
    items: [{ id: "a", size: 1 }, { id: "b", size: 2 }, { id: "c", size: 3 }],
    count: 3,
  });

  const bad = await runCli(
    ["call", "list_items", '{"bad":true}', "--tools", TOOLS, "--json"],
    { raw: true },
  );
  assert.equal(bad.code, 1, bad.stderr);
  const failed = JSON.parse(bad.stdout);
  assert.equal(failed.outcome, "error");
  assert.equal(failed.error_code, "invalid_output");
  assert.match(failed.text, /^Invalid output: output\.items\[2\]\.id: expected string/);
  assert.equal(failed.structured, null);

  // An inline tool: checked in the host; keys the schema does not name are left out.
  const inline = await runCli(
    ["call", "count_words", '{"text":"a b"}', "--tools", TOOLS, "--json"],
    { raw: true },
  );
  assert.equal(inline.code, 0, inline.stderr);
  assert.deepEqual(JSON.parse(inline.stdout).structured, { words: 2 });
  const wrong = await runCli(
    ["call", "count_words", '{"text":"a","wrong":true}', "--tools", TOOLS],
    { raw: true },
  );
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /invalid_output/);
  assert.match(wrong.stderr, /output\.words: expected number/);
});

Deno.test("mcp: the SDK client sees outputSchema, title and annotations, and validates structuredContent", async () => {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      ...FULL_CLI,
      "-A",
      `${ROOT}cli.ts`,
      "mcp",
      "--no-config",
      "--tools",
      TOOLS,
      "--approve",
      "allow",
    ],
    cwd: ROOT,
    env: { ...Deno.env.toObject(), NO_COLOR: "1" },
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(
      tools.map((tool: { name: string }) => [tool.name, tool as Record<string, unknown>]),
    );
    const list = byName["list_items"]!;
    assert.equal(list["title"], "List items");
    assert.equal((list["outputSchema"] as { type: string }).type, "object");
    assert.deepEqual(byName["save_note"]!["annotations"], {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.equal(byName["count_words"]!["outputSchema"] !== undefined, true);
    assert.equal(byName["save_note"]!["outputSchema"], undefined);

    // The SDK checks structuredContent against outputSchema (it throws on a mismatch).
    const ok = await client.callTool({ name: "list_items", arguments: {} });
    assert.notEqual(ok.isError, true);
    assert.deepEqual(ok.structuredContent, {
      items: [{ id: "a", size: 1 }, { id: "b", size: 2 }, { id: "c", size: 3 }],
      count: 3,
    });
    const bad = await client.callTool({ name: "list_items", arguments: { bad: true } });
    assert.equal(bad.isError, true);
    const text = (bad.content as { type: string; text: string }[])[0]!.text;
    assert.match(text, /^Invalid output: output\.items\[2\]\.id: expected string/);
    const words = await client.callTool({ name: "count_words", arguments: { text: "x y z" } });
    assert.deepEqual(words.structuredContent, { words: 3 });
  } finally {
    await client.close();
  }
});

Deno.test("run --record-args puts a typed tool's validated value on its tool.result as structured; off by default", async () => {
  const prompt = 'count_words {"text":"a b c"}';
  const recorded = await runCli(["run", "--tools", TOOLS, "--record-args", prompt]);
  assert.equal(recorded.code, 0, recorded.stderr);
  const result = recorded.records.find((r) => r.type === "tool.result");
  // Validated against the output schema: the tool's extra key is not there.
  assert.deepEqual((result as { structured?: unknown } | undefined)?.structured, { words: 3 });
  const plain = await runCli(["run", "--tools", TOOLS, prompt]);
  assert.equal(plain.code, 0, plain.stderr);
  const bare = plain.records.find((r) => r.type === "tool.result");
  assert.ok(bare !== undefined && !("structured" in bare), JSON.stringify(bare));
});
