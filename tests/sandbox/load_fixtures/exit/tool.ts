/** Load-time sandbox fixture: ends the process at top level. */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

Deno.exit(0);

export default defineTool({
  name: "exit",
  description: "Load-time sandbox test tool.",
  input: z.strictObject({ n: z.number().int() }),
  effect: "read",
  run: ({ n }) => n + 1,
});
