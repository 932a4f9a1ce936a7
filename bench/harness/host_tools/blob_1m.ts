/**
 * Benchmark tool `blob_1m`: returns a fixed text of `RESULT_BYTES.blob_1m` bytes.
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../../src/tool/define.ts";
import { payloadText, RESULT_BYTES } from "../payloads.ts";

const text = payloadText(RESULT_BYTES.blob_1m);

export default defineTool({
  name: "blob_1m",
  description: `Return ${RESULT_BYTES.blob_1m} bytes of text.`,
  input: z.strictObject({}),
  effect: "read",
  isolation: "inline",
  run: () => text,
});
