/**
 * Generate tool module directories for the startup benchmark: `n` tools
 * `tool_0` … `tool_<n-1>`, each with a one-field input schema (the same
 * shape as the MCP peer's generated tools).
 *
 * @module
 */

import { generatedDescription } from "./payloads.ts";

const DEFINE = new URL("../../src/tool/define.ts", import.meta.url).href;

/** Source text of generated tool module `index`. */
export function generatedToolSource(index: number): string {
  return [
    `import { z } from "zod";`,
    `import { defineTool } from ${JSON.stringify(DEFINE)};`,
    ``,
    `export default defineTool({`,
    `  name: "tool_${index}",`,
    `  description: ${JSON.stringify(generatedDescription(index))},`,
    `  input: z.strictObject({ key: z.string().describe("Record key") }),`,
    `  effect: "read",`,
    `  isolation: "inline",`,
    `  run: ({ key }) => key,`,
    `});`,
    ``,
  ].join("\n");
}

/** Write `count` generated tool modules into a new temporary directory; returns its path. */
export async function generateToolDir(count: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: `magi-bench-tools-${count}-` });
  for (let i = 0; i < count; i++) {
    const name = `tool_${String(i).padStart(2, "0")}.ts`;
    await Deno.writeTextFile(`${dir}/${name}`, generatedToolSource(i));
  }
  return dir;
}
