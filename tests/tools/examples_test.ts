import assert from "node:assert/strict";
import { loadToolDirs } from "../../src/toolset/discovery.ts";
import { ToolRegistry } from "../../src/toolset/registry.ts";

Deno.test("the example tools load from tools/ and register within every bound", async () => {
  const loaded = await loadToolDirs(["tools"]);
  assert.deepEqual(loaded.map((entry) => [entry.file, entry.tool.name]), [
    ["tools/http_json.ts", "ticket_lookup"],
    ["tools/read_text.ts", "read_text"],
    ["tools/text_stats.ts", "text_stats"],
    ["tools/write_note.ts", "write_note"],
  ]);
  const registry = ToolRegistry.fromLoaded(loaded, { requiredCapabilities: ["client.tools"] });
  assert.deepEqual(registry.definitions().map((definition) => definition.effect), [
    "read",
    "read",
    "read",
    "write",
  ]);
  for (const definition of registry.definitions()) {
    assert.equal(definition.input_schema["additionalProperties"], false, definition.name);
  }
});
