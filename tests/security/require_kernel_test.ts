/**
 * `--require-kernel-sandbox` decides from the zero-permission describe, before the host
 * imports anything (issue 23 item 3): an inline module's top-level code never runs in a run
 * that is refused, whether its description came from the describe child or from the cache.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, exists, ROOT, scenario, tempDir } from "./_scopes.ts";

const DEFINE = new URL("../../src/tool/define.ts", import.meta.url).href;

/** An inline tool whose top-level code writes `marker` (in the host only: the child has no permission). */
function inlineSource(marker: string): string {
  return `import { z } from "zod";
import { defineTool } from ${JSON.stringify(DEFINE)};
try {
  Deno.writeTextFileSync(${JSON.stringify(marker)}, "imported");
} catch {
  // The zero-permission describe child.
}
export default defineTool({
  name: "eager",
  description: "An inline tool with top-level side effects.",
  input: z.strictObject({}),
  effect: "read",
  isolation: "inline",
  run: () => "eager",
});
`;
}

const PROCESS_TOOL = `import { z } from "zod";
import { defineTool } from ${JSON.stringify(DEFINE)};
export default defineTool({
  name: "sandboxed",
  description: "A process tool.",
  input: z.strictObject({}),
  effect: "read",
  run: () => "sandboxed",
});
`;

Deno.test("--require-kernel-sandbox refuses an inline module without importing it (run, batch; cold and cached)", async () => {
  const base = await tempDir("magi-tools-sec-require-");
  // The tools and the project live in this repository's .artifacts: the deno.json Deno finds
  // from there maps zod, so the descriptions can be cached. The marker is outside.
  const artifacts = join(ROOT, "tests", ".artifacts");
  await Deno.mkdir(artifacts, { recursive: true });
  const here = await Deno.makeTempDir({ dir: artifacts, prefix: "require-" });
  try {
    const tools = join(here, "tools");
    const project = join(here, "project");
    const marker = join(base.path, "marker");
    await Deno.mkdir(tools);
    await Deno.mkdir(project);
    await Deno.writeTextFile(join(tools, "eager.ts"), inlineSource(marker));
    await Deno.writeTextFile(join(tools, "sandboxed.ts"), PROCESS_TOOL);
    const env = {
      MAGI_TOOLS_CACHE_DIR: join(base.path, "cache"),
      MC_HOME: join(base.path, "mc"),
      MAGI_SCENARIO: await scenario(base.path, [{ say: "hi" }]),
    };
    const input = join(base.path, "items.jsonl");
    await Deno.writeTextFile(input, JSON.stringify({ id: "one", prompt: "GO" }) + "\n");
    const commands = [
      ["run", "--tools", tools, "--require-kernel-sandbox", "GO"],
      [
        "batch",
        input,
        "--out",
        join(base.path, "out"),
        "--tools",
        tools,
        "--require-kernel-sandbox",
      ],
    ];
    // Cold (the describe child answers), then warm (the cache answers: a `tools` listing
    // imports the inline module and stores the descriptions).
    for (const warm of [false, true]) {
      if (warm) {
        const listing = await cli(["tools", "--tools", tools], { cwd: project, env });
        assert.equal(listing.code, 0, listing.stderr);
        assert.ok(await exists(marker), "tools imports the inline module (the marker works)");
        await Deno.remove(marker);
        const cached = [...Deno.readDirSync(env.MAGI_TOOLS_CACHE_DIR)]
          .filter((entry) => entry.name.endsWith(".json"));
        assert.equal(cached.length, 2, "both descriptions are cached");
      }
      for (const args of commands) {
        const what = `${args[0]} ${warm ? "warm" : "cold"}`;
        const refused = await cli(args, { cwd: project, env });
        assert.equal(refused.code, 2, `${what}: ${refused.stderr}`);
        assert.equal(refused.stdout, "", what);
        assert.match(
          refused.stderr,
          /--require-kernel-sandbox: \d tool\(s\) would run without the kernel sandbox: .*eager \(none: isolation: inline/,
          what,
        );
        assert.equal(
          await exists(marker),
          false,
          `${what}: the refused inline module was imported`,
        );
      }
    }
    // Next to it: without the inline module the requirement holds where Landlock is there.
    await Deno.remove(join(tools, "eager.ts"));
    const listing = await cli(["tools", "--tools", tools], { cwd: project, env });
    const kernel = /\tkernel\+deno$/m.test(listing.stdout);
    const run = await cli(commands[0]!, { cwd: project, env });
    if (kernel) assert.equal(run.code, 0, run.stderr);
    else assert.match(run.stderr, /sandboxed \(deno: /);
  } finally {
    await Deno.remove(here, { recursive: true });
    await base.remove();
  }
});
