/** Load-time sandbox fixture: declares no permission; run() reads a file anyway. */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

const file = new URL("../../fixtures/allowed.txt", import.meta.url);

export default defineTool({
  name: "bare",
  description: "Load-time sandbox test tool without permissions.",
  input: z.strictObject({}),
  effect: "read",
  run: () => Deno.readTextFileSync(file),
});
