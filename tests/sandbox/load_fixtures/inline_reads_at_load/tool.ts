/** Load-time sandbox fixture: an inline tool whose top-level code reads a file (refused). */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

const text = Deno.readTextFileSync(new URL("../../fixtures/allowed.txt", import.meta.url));

export default defineTool({
  name: "inline_eager",
  description: "Load-time sandbox test tool, inline, reading at load.",
  input: z.strictObject({}),
  effect: "read",
  isolation: "inline",
  run: () => text,
});
