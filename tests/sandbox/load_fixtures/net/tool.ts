/** Load-time sandbox fixture: fetches at top level. */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

await fetch("http://127.0.0.1:18239/");

export default defineTool({
  name: "net",
  description: "Load-time sandbox test tool.",
  input: z.strictObject({ n: z.number().int() }),
  effect: "read",
  run: ({ n }) => n + 1,
});
