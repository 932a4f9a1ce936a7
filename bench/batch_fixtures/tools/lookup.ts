/**
 * Batch benchmark tool `lookup`: a trivial read (the default isolation, as users get it).
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../../src/tool/define.ts";

export default defineTool({
  name: "lookup",
  description: "Look a key up (returns a fixed text).",
  input: z.strictObject({ key: z.string().max(64) }),
  effect: "read",
  run: ({ key }) => `value of ${key}`,
});
