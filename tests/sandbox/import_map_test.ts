/**
 * Tool modules import `defineTool` from `@magi/tools`, an import-map name (this repository's
 * deno.json maps it to ./mod.ts; a user's project gets it from `deno add jsr:@magi/tools`). The
 * zero-permission describe child and the tool process resolve it through the import map, like
 * `zod`: Deno takes the configuration of their entry module, here this repository's deno.json,
 * so a tool folder anywhere (even without a deno.json of its own) can use the name.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadToolDirs } from "../../src/toolset/discovery.ts";
import { ToolLoadError } from "../../src/errors/mod.ts";
import { ToolExecutor } from "../../src/call/executor.ts";
import { ToolRegistry } from "../../src/toolset/registry.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";

function toolSource(from: string): string {
  return `import { z } from "zod";
import { defineTool } from "${from}";

export default defineTool({
  name: "shout",
  description: "Return the text in capitals.",
  input: z.strictObject({ text: z.string() }),
  effect: "read",
  isolation: "process",
  run: ({ text }) => text.toUpperCase(),
});
`;
}

/** A folder outside the repository with `tools/shout.ts` importing `defineTool` from `from`. */
async function project(from: string): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "magi-tools-import-map-" });
  await Deno.mkdir(join(root, "tools"));
  await Deno.writeTextFile(join(root, "tools", "shout.ts"), toolSource(from));
  return root;
}

Deno.test("a process tool importing @magi/tools is described and run through the import map", async () => {
  const root = await project("@magi/tools");
  try {
    const loaded = await loadToolDirs([join(root, "tools")], { describe: { cwd: root } });
    const registry = ToolRegistry.fromLoaded(loaded);
    assert.deepEqual(registry.definitions().map((definition) => definition.name), ["shout"]);
    const executor = new ToolExecutor(registry, { limits: CLIENT_TOOLS_LIMITS, cwd: root });
    try {
      const result = await executor.execute({
        callId: "call-1",
        name: "shout",
        toolId: registry.get("shout")!.toolId,
        arguments: { text: "quiet" },
        deadlineMs: 20_000,
        sessionId: "session-1",
        runId: "run-1",
      }, new AbortController().signal);
      assert.equal(result.outcome, "success", result.text);
      assert.equal(result.text, "QUIET");
    } finally {
      await executor.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a name missing from the import map fails the tool module's load, naming the module", async () => {
  const root = await project("@magi/no-such-name");
  try {
    const file = join(root, "tools", "shout.ts");
    const error = await loadToolDirs([join(root, "tools")], { describe: { cwd: root } }).then(
      () => assert.fail("expected a ToolLoadError"),
      (error: unknown) => error,
    );
    assert.ok(error instanceof ToolLoadError, String(error));
    assert.equal(error.file, file);
    assert.match(error.message, /@magi\/no-such-name/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
