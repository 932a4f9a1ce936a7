import assert from "node:assert/strict";
import { toolIdOf } from "../../../src/protocol/canonical.ts";
import {
  clientToolsDescriptor,
  validateClientTools,
} from "../../../src/reference_backend/client_tools/definitions.ts";

const tool = (extra: Record<string, unknown> = {}) => ({
  name: "lookup",
  description: "Look up.",
  input_schema: { type: "object" },
  effect: "read",
  ...extra,
});

Deno.test("validateClientTools() registers tools with tool IDs and timeouts", () => {
  const def = tool({ timeout_ms: 5000 });
  const tools = validateClientTools([def, tool({ name: "other", effect: "write" })]);
  assert.ok(tools !== null);
  assert.equal(tools[0]!.toolId, toolIdOf(def));
  assert.equal(tools[0]!.timeoutMs, 5000);
  assert.equal(tools[1]!.timeoutMs, 120_000);
  assert.equal(tools[1]!.effect, "write");
  assert.deepEqual(
    (clientToolsDescriptor(tools).tools as unknown[])[0],
    { name: "lookup", tool_id: toolIdOf(def) },
  );
});

const deep = (n: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { type: "object" };
  for (let i = 1; i < n; i++) value = { type: "object", properties: { a: value } };
  return value;
};

const INVALID: [string, unknown][] = [
  ["a built-in name", [tool({ name: "shell" })]],
  ["a duplicate name", [tool(), tool()]],
  ["an unknown field", [tool({ extra: 1 })]],
  ["a name with a space", [tool({ name: "a b" })]],
  ["a control character in the description", [tool({ description: "a\u0001" })]],
  ["a 1025-byte description", [tool({ description: "x".repeat(1025) })]],
  ["a schema that is not an object type", [tool({ input_schema: { type: "string" } })]],
  ["a schema deeper than 16", [tool({ input_schema: deep(9) })]],
  ["an unknown effect", [tool({ effect: "maybe" })]],
  ["a timeout below 1000", [tool({ timeout_ms: 999 })]],
  ["a timeout above 600000", [tool({ timeout_ms: 600_001 })]],
  ["33 tools", Array.from({ length: 33 }, (_, i) => tool({ name: `t${i}` }))],
];
for (const [name, list] of INVALID) {
  Deno.test(`validateClientTools() rejects ${name}`, () => {
    assert.equal(validateClientTools(list), null);
  });
}

Deno.test("validateClientTools() accepts an empty list and a LF/TAB description", () => {
  assert.deepEqual(validateClientTools([]), []);
  assert.equal(validateClientTools([tool({ description: "a\n\tb" })])?.length, 1);
});
