/** Load-time sandbox fixture: does nothing at top level. */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

// Nothing at load time.

export default defineTool({
  name: "good",
  description: "Load-time sandbox test tool.",
  input: z.strictObject({ n: z.number().int() }),
  effect: "read",
  run: ({ n }) => n + 1,
});
