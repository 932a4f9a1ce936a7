/** Load-time sandbox fixture: runs a program at top level. */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

new Deno.Command("deno", { args: ["eval", "1"] }).outputSync();

export default defineTool({
  name: "run",
  description: "Load-time sandbox test tool.",
  input: z.strictObject({ n: z.number().int() }),
  effect: "read",
  run: ({ n }) => n + 1,
});
