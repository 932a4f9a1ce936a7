import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isTool } from "../../src/tool/define.ts";
import { loadToolDirs } from "../../src/toolset/discovery.ts";
import { RegistryError, ToolRegistry } from "../../src/toolset/registry.ts";
import { inputSchemaOf } from "../../src/sandbox/description.ts";

const DEFINE = new URL("../../src/tool/define.ts", import.meta.url).href;

async function inlineToolDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "magi-described-input-"));
  await writeFile(
    join(dir, "lookup.ts"),
    `import { z } from "zod";
import { defineTool } from "${DEFINE}";
export default defineTool({
  name: "lookup",
  description: "Look a record up.",
  input: z.strictObject({
    key: z.string().min(1).describe("Record key"),
    limit: z.int().min(1).max(50).optional(),
    tags: z.array(z.enum(["a", "b"])).default([]),
  }),
  effect: "read",
  isolation: "inline",
  run: ({ key }) => key,
});
`,
  );
  return dir;
}

Deno.test("loadToolDirs() hands an inline tool's described input schema on, equal to the host's own conversion", async () => {
  const dir = await inlineToolDir();
  try {
    const [entry] = await loadToolDirs([dir]);
    assert.ok(entry !== undefined && isTool(entry.tool), "the inline module was imported");
    assert.ok(entry.describedInput !== undefined, "the description's schema is kept");
    assert.deepEqual(entry.describedInput, inputSchemaOf(entry.tool.input));
    // The definition the backend sees is the same with and without the reuse.
    const reused = ToolRegistry.fromLoaded([entry]).definitions();
    const converted = ToolRegistry.fromLoaded([{
      tool: entry.tool,
      file: entry.file,
      url: entry.url,
    }])
      .definitions();
    assert.deepEqual(reused, converted);
    assert.equal(reused[0]?.input_schema["type"], "object");
  } finally {
    await rm(dir, { recursive: true });
  }
});

Deno.test("ToolRegistry.fromLoaded() advertises the described input schema instead of converting again", async () => {
  const dir = await inlineToolDir();
  try {
    const [entry] = await loadToolDirs([dir], { describe: false });
    assert.ok(entry !== undefined && entry.describedInput === undefined, "no description in-host");
    const marker = { type: "object", properties: { marker: { type: "string" } } };
    const [definition] = ToolRegistry.fromLoaded([{ ...entry, describedInput: { schema: marker } }])
      .definitions();
    assert.deepEqual(definition?.input_schema, marker);
    // A conversion error found by the describe child is reported as the host's own would be.
    assert.throws(
      () =>
        ToolRegistry.fromLoaded([{
          ...entry,
          describedInput: { error: "when: Date cannot be represented" },
        }]),
      (error: unknown) =>
        error instanceof RegistryError &&
        error.message ===
          "Tool input schema cannot be converted to JSON Schema: lookup (" + entry.file +
            "): when: Date cannot be represented",
    );
  } finally {
    await rm(dir, { recursive: true });
  }
});
