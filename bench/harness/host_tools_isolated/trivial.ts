/**
 * Benchmark tool `trivial` declared `isolation: "process"`: returns `hello`
 * (5 bytes) when it runs in its own process, and `inline` (6 bytes) when it
 * runs inside the host (the main module is not the sandbox runner), so the suite can tell
 * an isolated run from a host that ignores the declaration.
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../../src/tool/define.ts";

export default defineTool({
  name: "trivial",
  description: "Return 5 bytes of text from a tool process.",
  input: z.strictObject({}),
  effect: "read",
  isolation: "process",
  run: () => (Deno.mainModule.endsWith("/sandbox/runner.ts") ? "hello" : "inline"),
});
