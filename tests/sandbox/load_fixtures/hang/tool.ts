/** Load-time sandbox fixture: never finishes loading (a long top-level await). */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

await new Promise((resolve) => setTimeout(resolve, 60_000));

export default defineTool({
  name: "hang",
  description: "Load-time sandbox test tool that hangs.",
  input: z.strictObject({}),
  effect: "read",
  run: () => "never",
});
