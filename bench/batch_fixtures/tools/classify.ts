/**
 * Batch benchmark tool `classify`: a trivial read (the default isolation, as users get it).
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../../src/tool/define.ts";

export default defineTool({
  name: "classify",
  description: "Classify a text (returns its length bucket).",
  input: z.strictObject({ text: z.string().max(1024) }),
  effect: "read",
  run: ({ text }) => (text.length > 16 ? "long" : "short"),
});
