/**
 * Conformance `json-schema-2020-12`: a tool whose input schema uses `$defs`
 * and `$ref` (zod emits a schema with an `id` once, under `$defs`) and
 * `additionalProperties: false`; `mcp` lists module tools' schemas with
 * their `$schema` (draft 2020-12, as zod converts them).
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../../../src/tool/define.ts";

const Address = z.object({ street: z.string().optional(), city: z.string().optional() })
  .meta({ id: "address" });

export default defineTool({
  name: "json_schema_2020_12_tool",
  description: "Tool with JSON Schema 2020-12 features.",
  input: z.strictObject({ name: z.string().optional(), address: Address.optional() }),
  effect: "read",
  run: ({ name, address }) => ({ name: name ?? null, city: address?.city ?? null }),
});
