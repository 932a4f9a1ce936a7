/**
 * Benchmark tool `blob_60k`: returns a fixed text of `RESULT_BYTES.blob_60k` bytes.
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../../src/tool/define.ts";
import { payloadText, RESULT_BYTES } from "../payloads.ts";

const text = payloadText(RESULT_BYTES.blob_60k);

export default defineTool({
  name: "blob_60k",
  description: `Return ${RESULT_BYTES.blob_60k} bytes of text.`,
  input: z.strictObject({}),
  effect: "read",
  isolation: "inline",
  run: () => text,
});
