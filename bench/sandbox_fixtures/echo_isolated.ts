/**
 * Trivial process-isolated tool for `bench/sandbox_bench.ts`.
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../src/tool/define.ts";

export default defineTool({
  name: "echo_isolated",
  description: "Return the given text unchanged (process isolation).",
  input: z.strictObject({ text: z.string() }),
  effect: "read",
  run: ({ text }) => text,
});
