/**
 * Benchmark tool `trivial`: returns a fixed text of `RESULT_BYTES.trivial` bytes.
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../../src/tool/define.ts";
import { payloadText, RESULT_BYTES } from "../payloads.ts";

const text = payloadText(RESULT_BYTES.trivial);

export default defineTool({
  name: "trivial",
  description: `Return ${RESULT_BYTES.trivial} bytes of text.`,
  input: z.strictObject({}),
  effect: "read",
  isolation: "inline",
  run: () => text,
});
