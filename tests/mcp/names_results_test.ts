import assert from "node:assert/strict";
import { globMatch, hostToolName, selected, TOOL_NAME } from "../../src/mcp/names.ts";
import { base64Bytes, resultText } from "../../src/mcp/results.ts";

Deno.test("hostToolName() makes names fit ^[A-Za-z][A-Za-z0-9_-]{0,63}$", () => {
  const cases: [string, string, string][] = [
    ["fs_", "read_file", "fs_read_file"],
    ["fs_", "read.file/v2", "fs_read_file_v2"],
    ["", "9lives", "t_9lives"],
    ["", "ünïcode", "t__n_code"],
  ];
  for (const [prefix, tool, expected] of cases) assert.equal(hostToolName(prefix, tool), expected);
  const long = hostToolName("server_", "a".repeat(100));
  const other = hostToolName("server_", "a".repeat(99) + "b");
  assert.equal(long.length, 64);
  assert.ok(TOOL_NAME.test(long));
  assert.notEqual(long, other, "long names stay apart");
});

Deno.test("globMatch() and selected() apply include then exclude", () => {
  assert.ok(globMatch("get-*", "get-sum"));
  assert.ok(globMatch("e?ho", "echo"));
  assert.ok(!globMatch("get-*", "toggle-x"));
  assert.ok(!globMatch("a.b", "axb"), "dots are literal");
  assert.ok(selected("echo", undefined, []));
  assert.ok(!selected("echo", ["get-*"], []));
  assert.ok(!selected("get-env", ["get-*"], ["get-env"]));
});

Deno.test("resultText() maps MCP content to text without base64", () => {
  assert.equal(
    resultText({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }),
    "a\n\nb",
  );
  assert.equal(
    resultText({ content: [{ type: "audio", mimeType: "audio/wav", data: "AAAAAA==" }] }),
    "[audio: audio/wav, 4 bytes]",
  );
  assert.equal(
    resultText({
      content: [{
        type: "resource",
        resource: { uri: "file:///a.bin", mimeType: "application/zip", blob: "AAAA" },
      }],
    }),
    "[resource file:///a.bin: application/zip, 3 bytes]",
  );
  assert.equal(
    resultText({ content: [{ type: "resource", resource: { uri: "file:///a.txt", text: "hi" } }] }),
    "[resource file:///a.txt]\nhi",
  );
  assert.equal(
    resultText({ content: [{ type: "resource_link", name: "A", uri: "demo://a" }] }),
    "[resource link: A demo://a]",
  );
  assert.equal(resultText({ content: [], structuredContent: { n: 1 } }), '{"n":1}');
  assert.equal(
    resultText({ content: [{ type: "text", text: "t" }], structuredContent: { n: 1 } }),
    "t",
    "text content wins over structuredContent",
  );
  assert.equal(base64Bytes("QUJD"), 3);
  assert.equal(base64Bytes("QUI="), 2);
});
