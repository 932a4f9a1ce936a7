/** The inspector's tool set reloads through the shared watcher (`toolset/watch.ts`), no browser. */

import assert from "node:assert/strict";
import { dirname } from "node:path";
import { ToolSet } from "../../src/inspect/tool_set.ts";
import type { ToolSetView } from "../../src/inspect/tool_set.ts";
import { toolSource } from "./_inspector.ts";

/** Put `text` at `path` in one step (a rename), so no reload sees it half written. */
async function place(path: string, text: string): Promise<void> {
  // Beside the tool directory (not in it: the watch would see the temporary file).
  const temp = await Deno.makeTempFile({ dir: dirname(dirname(path)), suffix: ".ts" });
  await Deno.writeTextFile(temp, text);
  await Deno.rename(temp, path);
}

function tool(name: string): string {
  return toolSource(`export default defineTool({
  name: "${name}",
  description: "The tool ${name}.",
  input: z.strictObject({}),
  effect: "read",
  run: () => "ok",
});`);
}

Deno.test("ToolSet.watch reloads on a new file and keeps the set on a broken one", async () => {
  const root = await Deno.makeTempDir({ prefix: "magi-tools-toolset-watch-" });
  const dir = `${root}/tools`;
  await Deno.mkdir(dir);
  await Deno.writeTextFile(`${dir}/alpha.ts`, tool("alpha"));
  const views: ToolSetView[] = [];
  let waiting: (() => void) | null = null;
  const tools = new ToolSet({
    dirs: [dir],
    cwd: dir,
    onChange: (view) => {
      views.push(view);
      waiting?.();
    },
  });
  const next = () => new Promise<void>((resolve) => waiting = resolve);
  try {
    await tools.reload();
    tools.watch();
    assert.deepEqual(tools.view().tools.map((t) => t.name), ["alpha"]);
    let changed = next();
    await place(`${dir}/beta.ts`, tool("beta"));
    await changed;
    assert.deepEqual(tools.view().tools.map((t) => t.name).sort(), ["alpha", "beta"]);
    changed = next();
    await place(`${dir}/broken.ts`, "export default 42;\n");
    await changed;
    const last = views.at(-1)!;
    assert.match(last.errors[0]?.file ?? "", /broken\.ts/);
    assert.deepEqual(last.tools.map((t) => t.name).sort(), ["alpha", "beta"]);
  } finally {
    await tools.close();
    await Deno.remove(root, { recursive: true });
  }
});
