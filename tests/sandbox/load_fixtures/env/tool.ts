/** Load-time sandbox fixture: reads the environment at top level. */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

console.log(Deno.env.get("HOME"));

export default defineTool({
  name: "env",
  description: "Load-time sandbox test tool.",
  input: z.strictObject({ n: z.number().int() }),
  effect: "read",
  run: ({ n }) => n + 1,
});
