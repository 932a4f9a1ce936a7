/**
 * A syntax error in a tool module, through the CLI (issue 24 item 5): the error names
 * `file:line:col` and shows the offending line with its marker, for the module itself and for a
 * helper module it imports; a module that loads is still listed.
 */
import assert from "node:assert/strict";
import { ROOT } from "../e2e/_cli.ts";

const CLI = [`--lock=${ROOT}deno.full.lock`, "-A", `${ROOT}cli.ts`];

async function cli(cwd: string, args: string[]): Promise<{ code: number; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...CLI, ...args],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", MAGI_TOOLS_CACHE_DIR: `${cwd}/.cache` },
    signal: AbortSignal.timeout(60_000),
  }).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

const TOOL = (body: string) =>
  `import { defineTool } from "${ROOT}mod.ts";\n\nexport default defineTool({\n` +
  `  name: "broken",\n  description: "Broken.",\n${body}\n});\n`;
/** A tool module that loads once its helper does. */
const GOOD = (prefix: string) =>
  `${prefix}import { defineTool } from "${ROOT}mod.ts";\n` +
  `import { z } from "npm:zod@^4";\n` +
  `export default defineTool({ name: "uses", description: "Uses.", input: z.strictObject({}), ` +
  `effect: "read", run: () => String(n) });\n`;

Deno.test("a syntax error in a tool module shows file:line:col and the line, in `tools` and `call`", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-syntax-" });
  try {
    await Deno.mkdir(`${dir}/tools`);
    await Deno.writeTextFile(`${dir}/tools/broken.ts`, TOOL("  run() { return 1 + ; },"));
    for (
      const args of [["tools", "--tools", "tools"], ["call", "--tools", "tools", "broken", "{}"]]
    ) {
      const run = await cli(dir, args);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(
        run.stderr,
        [
          "magi-tools: Tool module failed to load: tools/broken.ts: SyntaxError: Expression expected",
          "  at tools/broken.ts:6:22",
          "  6 |   run() { return 1 + ; },",
          "    |                      ~",
          "",
        ].join("\n"),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a syntax error in a helper module names the helper; a fixed module loads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-syntax-" });
  try {
    await Deno.mkdir(`${dir}/tools`);
    await Deno.mkdir(`${dir}/lib`);
    await Deno.writeTextFile(`${dir}/lib/helper.ts`, "export const n = (;\n");
    await Deno.writeTextFile(
      `${dir}/tools/uses.ts`,
      GOOD(`import { n } from "../lib/helper.ts";\n`),
    );
    const broken = await cli(dir, ["tools", "--tools", "tools"]);
    assert.equal(broken.code, 2, broken.stderr);
    const lines = broken.stderr.split("\n");
    assert.match(
      lines[0]!,
      /^magi-tools: Tool module failed to load: tools\/uses\.ts: SyntaxError: /,
    );
    assert.equal(lines[1], `  at ${await Deno.realPath(dir)}/lib/helper.ts:1:19`);
    assert.equal(lines[2], "  1 | export const n = (;");
    await Deno.writeTextFile(`${dir}/lib/helper.ts`, "export const n = 1;\n");
    const fixed = await cli(dir, ["tools", "--tools", "tools"]);
    assert.equal(fixed.code, 0, fixed.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
