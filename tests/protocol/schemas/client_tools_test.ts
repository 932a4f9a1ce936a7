import { CLIENT_TOOLS_LIMITS } from "../../../src/protocol/limits.ts";
import {
  ClientToolCallDataSchema,
  ClientToolCancelDataSchema,
  ClientToolDefinitionSchema,
  ClientToolDefinitionsSchema,
  ClientToolResultParamsSchema,
  ClientToolResultResultSchema,
  ClientToolsDescriptorSchema,
} from "../../../src/protocol/schemas/client_tools.ts";
import { assertAccepts, assertRejects, without } from "./_assert.ts";

// client-tools.md §1 example definition.
const TOOL = JSON.parse(`{"name":"lookup_ticket","description":"Fetch one ticket by id.",
   "input_schema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false},
   "effect":"read"}`);

/** An object schema nested `depth` containers deep (root included). */
function nestedSchema(depth: number): Record<string, unknown> {
  let inner: Record<string, unknown> = { type: "object" };
  for (let i = 1; i < depth; i++) inner = { type: "object", properties: inner };
  return inner;
}

/** An object schema serializing to exactly `bytes` bytes. */
function schemaOfBytes(bytes: number): Record<string, unknown> {
  const base = JSON.stringify({ type: "object", description: "" }).length;
  return { type: "object", description: "d".repeat(bytes - base) };
}

Deno.test("ClientToolDefinitionSchema accepts the spec example and boundary values", () => {
  assertAccepts(ClientToolDefinitionSchema, [
    ["spec example", TOOL],
    ["write effect", { ...TOOL, effect: "write" }],
    ["1-char name", { ...TOOL, name: "a" }],
    ["64-char name", { ...TOOL, name: "A" + "b_-9".repeat(15) + "xyz" }],
    ["1-byte description", { ...TOOL, description: "x" }],
    ["1024-byte description of 3-byte chars + 1", { ...TOOL, description: "€".repeat(341) + "a" }],
    ["LF and TAB in description", { ...TOOL, description: "a\n\tb" }],
    ["timeout_ms 1000", { ...TOOL, timeout_ms: 1000 }],
    ["timeout_ms 600000", { ...TOOL, timeout_ms: 600000 }],
    ["schema of 16384 bytes", { ...TOOL, input_schema: schemaOfBytes(16384) }],
    ["schema 16 containers deep", { ...TOOL, input_schema: nestedSchema(16) }],
  ]);
});

Deno.test("ClientToolDefinitionSchema rejects boundary violations", () => {
  assertRejects(ClientToolDefinitionSchema, [
    ["65-char name", { ...TOOL, name: "a".repeat(65) }],
    ["name starting with a digit", { ...TOOL, name: "1tool" }],
    ["name with a dot", { ...TOOL, name: "a.b" }],
    ["empty name", { ...TOOL, name: "" }],
    ["empty description", { ...TOOL, description: "" }],
    ["1025-byte description of 3-byte chars", { ...TOOL, description: "€".repeat(341) + "ab" }],
    ["1026-byte description of 2-byte chars", { ...TOOL, description: "é".repeat(513) }],
    ["CR in description", { ...TOOL, description: "a\rb" }],
    ["NUL in description", { ...TOOL, description: "a\u0000b" }],
    ["timeout_ms 999", { ...TOOL, timeout_ms: 999 }],
    ["timeout_ms 600001", { ...TOOL, timeout_ms: 600001 }],
    ["timeout_ms fraction", { ...TOOL, timeout_ms: 1000.5 }],
    ["timeout_ms null", { ...TOOL, timeout_ms: null }],
    ["effect wrong case", { ...TOOL, effect: "Read" }],
    ["effect unknown", { ...TOOL, effect: "execute" }],
    ["unknown field", { ...TOOL, title: "x" }],
    ["missing name", without(TOOL, "name")],
    ["missing description", without(TOOL, "description")],
    ["missing input_schema", without(TOOL, "input_schema")],
    ["missing effect", without(TOOL, "effect")],
    ["schema root not object type", { ...TOOL, input_schema: { type: "string" } }],
    ["schema root without type", { ...TOOL, input_schema: { properties: {} } }],
    ["schema is an array", { ...TOOL, input_schema: [{ type: "object" }] }],
    ["schema of 16385 bytes", { ...TOOL, input_schema: schemaOfBytes(16385) }],
    ["schema 17 containers deep", { ...TOOL, input_schema: nestedSchema(17) }],
  ]);
});

Deno.test("ClientToolDefinitionsSchema allows 0–32 tools with unique names", () => {
  const tools = (n: number) => Array.from({ length: n }, (_, i) => ({ ...TOOL, name: `t${i}` }));
  assertAccepts(ClientToolDefinitionsSchema, [["empty", []], ["32", tools(32)]]);
  assertRejects(ClientToolDefinitionsSchema, [
    ["33", tools(33)],
    ["duplicate name", [TOOL, { ...TOOL, effect: "write" }]],
  ]);
});

// client-tools.md §2 example descriptor.
const DESCRIPTOR = JSON.parse(`{"version":1,
  "tools":[{"name":"lookup_ticket","tool_id":"${"0123456789abcdef".repeat(4)}"}],
  "limits":{"tools":32,"name_bytes":64,"description_bytes":1024,"schema_bytes":16384,
   "schema_depth":16,"arguments_bytes":32768,"result_part_bytes":16384,
   "result_bytes":1048576,"result_parts":256,"call_timeout_ms":120000,
   "max_timeout_ms":600000,"concurrent_calls":4,"calls_per_run":256,"cancel_grace_ms":2000}}`);

Deno.test("ClientToolsDescriptorSchema accepts the spec example and rejects deviations", () => {
  assertAccepts(ClientToolsDescriptorSchema, [["spec example", DESCRIPTOR]]);
  assertRejects(ClientToolsDescriptorSchema, [
    ["uppercase tool_id", {
      ...DESCRIPTOR,
      tools: [{ name: "lookup_ticket", tool_id: "A".repeat(64) }],
    }],
    ["short tool_id", { ...DESCRIPTOR, tools: [{ name: "lookup_ticket", tool_id: "ab" }] }],
    ["extra tool field", {
      ...DESCRIPTOR,
      tools: [{ ...DESCRIPTOR.tools[0], effect: "read" }],
    }],
    ["missing limit", { ...DESCRIPTOR, limits: without({ ...CLIENT_TOOLS_LIMITS }, "tools") }],
    ["extra limit", { ...DESCRIPTOR, limits: { ...CLIENT_TOOLS_LIMITS, other: 1 } }],
    ["version 2", { ...DESCRIPTOR, version: 2 }],
    ["unknown field", { ...DESCRIPTOR, extra: true }],
  ]);
});

const CALL = {
  session_id: "saved-id",
  run_id: "9b2e4c1a-0000-4000-8000-000000000001",
  call_id: "call-1",
  name: "lookup_ticket",
  tool_id: "0123456789abcdef".repeat(4),
  arguments: { id: "T-1" },
  deadline_ms: 120000,
};

Deno.test("ClientToolCallDataSchema checks the call event data", () => {
  assertAccepts(ClientToolCallDataSchema, [
    ["call", CALL],
    ["empty arguments", { ...CALL, arguments: {} }],
    ["arguments of 32768 bytes", { ...CALL, arguments: { a: "x".repeat(32768 - 8) } }],
  ]);
  assertRejects(ClientToolCallDataSchema, [
    ["arguments of 32769 bytes", { ...CALL, arguments: { a: "x".repeat(32768 - 7) } }],
    ["arguments array", { ...CALL, arguments: [] }],
    ["missing run_id", without(CALL, "run_id")],
    ["unknown field", { ...CALL, effect: "read" }],
    ["negative deadline", { ...CALL, deadline_ms: -1 }],
    ["bad call_id", { ...CALL, call_id: "a b" }],
  ]);
});

Deno.test("ClientToolCancelDataSchema accepts exactly the four reasons", () => {
  const cancel = { session_id: "s", run_id: "r", call_id: "c", reason: "deadline" };
  assertAccepts(
    ClientToolCancelDataSchema,
    ["run_cancelled", "deadline", "shutdown", "run_failed"].map((
      reason,
    ) => [reason, { ...cancel, reason }]),
  );
  assertRejects(ClientToolCancelDataSchema, [
    ["unknown reason", { ...cancel, reason: "timeout" }],
    ["missing reason", without(cancel, "reason")],
    ["extra", { ...cancel, grace_ms: 2000 }],
  ]);
});

// client-tools.md §4 example params. Its "..." placeholders are valid wire IDs, but
// session IDs use [A-Za-z0-9_-], so the session ID placeholder is filled in.
const RESULT_EXAMPLE =
  `{"session_id":"...","run_id":"...","call_id":"...","part":0,"last_part":true,
 "outcome":"success","text":"..."}`;
const RESULT = JSON.parse(RESULT_EXAMPLE.replace('"session_id":"..."', '"session_id":"saved-id"'));

Deno.test("ClientToolResultParamsSchema accepts the spec example and valid variants", () => {
  assertAccepts(ClientToolResultParamsSchema, [
    ["spec example", RESULT],
    [
      "run_id/call_id placeholders",
      JSON.parse(RESULT_EXAMPLE.replace('"session_id":"..."', '"session_id":"s"')),
    ],
    ["error with code", { ...RESULT, outcome: "error", error_code: "invalid_arguments" }],
    ["error without code", { ...RESULT, outcome: "error" }],
    ["cancelled", { ...RESULT, outcome: "cancelled", text: "" }],
    ["text of 16384 bytes", { ...RESULT, text: "€".repeat(5461) + "a" }],
    ["64-char error_code", { ...RESULT, outcome: "error", error_code: "e".repeat(64) }],
    ["later part", { ...RESULT, part: 300, last_part: false }],
  ]);
});

Deno.test("ClientToolResultParamsSchema rejects shape and bound violations", () => {
  assertRejects(ClientToolResultParamsSchema, [
    ["session ID with dots (the literal placeholder)", JSON.parse(RESULT_EXAMPLE)],
    ["error_code with success", { ...RESULT, error_code: "tool_failed" }],
    ["error_code with cancelled", { ...RESULT, outcome: "cancelled", error_code: "timeout" }],
    ["text of 16385 bytes", { ...RESULT, text: "€".repeat(5461) + "ab" }],
    ["unknown outcome", { ...RESULT, outcome: "failed" }],
    ["outcome wrong case", { ...RESULT, outcome: "Success" }],
    ["error_code uppercase", { ...RESULT, outcome: "error", error_code: "Bad" }],
    ["error_code 65 chars", { ...RESULT, outcome: "error", error_code: "e".repeat(65) }],
    ["error_code null", { ...RESULT, outcome: "error", error_code: null }],
    ["negative part", { ...RESULT, part: -1 }],
    ["fractional part", { ...RESULT, part: 0.5 }],
    ["missing last_part", without(RESULT, "last_part")],
    ["missing text", without(RESULT, "text")],
    ["unknown field", { ...RESULT, extra: 1 }],
  ]);
});

Deno.test("ClientToolResultResultSchema is exactly { recorded: true, complete }", () => {
  assertAccepts(ClientToolResultResultSchema, [
    ["complete", { recorded: true, complete: true }],
    ["incomplete", { recorded: true, complete: false }],
  ]);
  assertRejects(ClientToolResultResultSchema, [
    ["recorded false", { recorded: false, complete: true }],
    ["missing complete", { recorded: true }],
    ["extra", { recorded: true, complete: true, part: 0 }],
  ]);
});
