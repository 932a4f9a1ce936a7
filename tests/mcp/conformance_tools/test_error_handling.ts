/**
 * Conformance `tools-call-error`: a tool that always throws; `mcp` answers
 * an `isError` result with the message.
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../../src/tool/define.ts";

export default defineTool({
  name: "test_error_handling",
  description: "Always fail, to test error reporting.",
  input: z.strictObject({}),
  effect: "read",
  run: () => {
    throw new Error("This tool intentionally returns an error for testing");
  },
});
