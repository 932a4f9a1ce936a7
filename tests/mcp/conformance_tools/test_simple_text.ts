/**
 * Conformance `tools-call-simple-text`: a tool with no arguments returning a
 * fixed text (served by `magi-tools mcp --tools tests/mcp/conformance_tools`).
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../../src/tool/define.ts";

export default defineTool({
  name: "test_simple_text",
  description: "Return a simple text response for testing.",
  input: z.strictObject({}),
  effect: "read",
  run: () => "This is a simple text response for testing.",
});
