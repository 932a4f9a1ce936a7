/** Load-time sandbox fixture: reads a file at top level. */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

const secret = Deno.readTextFileSync(new URL("../../fixtures/allowed.txt", import.meta.url));
console.log(secret);

export default defineTool({
  name: "read",
  description: "Load-time sandbox test tool.",
  input: z.strictObject({ n: z.number().int() }),
  effect: "read",
  run: ({ n }) => n + 1,
});
