/** Load-time sandbox fixture: writes a file at top level. */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

Deno.writeTextFileSync("/tmp/magi-tools-load-write-probe", "written at load");

export default defineTool({
  name: "write",
  description: "Load-time sandbox test tool.",
  input: z.strictObject({ n: z.number().int() }),
  effect: "read",
  run: ({ n }) => n + 1,
});
