/**
 * Conformance `tools-call-with-progress`: reports progress 0/100, 50/100 and 100/100 through
 * `ctx.progress` (sent as `notifications/progress` when the client gave a progress token).
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../../src/tool/define.ts";

export default defineTool({
  name: "test_tool_with_progress",
  description: "Report progress 0, 50 and 100 of 100, then answer.",
  input: z.strictObject({}),
  effect: "read",
  async run(_args, ctx) {
    for (const done of [0, 50, 100]) {
      if (done > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      ctx.progress(done, 100);
    }
    return "Progress reported: 0, 50, 100 of 100.";
  },
});
