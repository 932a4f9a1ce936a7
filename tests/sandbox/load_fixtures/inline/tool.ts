/**
 * Load-time sandbox fixture: an inline tool. Its top-level code runs first in
 * the zero-permission describe child, then in the host (marking the host's
 * global object); its run() has the host's permissions.
 */

import { z } from "zod";
import { defineTool } from "../../../../src/tool/define.ts";

const marks = globalThis as { magiToolsInlineLoads?: number };
marks.magiToolsInlineLoads = (marks.magiToolsInlineLoads ?? 0) + 1;
const file = new URL("../../fixtures/allowed.txt", import.meta.url);

export default defineTool({
  name: "inline_reader",
  description: "Load-time sandbox test tool, inline.",
  input: z.strictObject({}),
  effect: "read",
  isolation: "inline",
  run: () => Deno.readTextFileSync(file),
});
