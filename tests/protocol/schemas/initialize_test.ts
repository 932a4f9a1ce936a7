import { CLIENT_TOOLS_LIMITS, LIMITS } from "../../../src/protocol/limits.ts";
import { BASE_CAPABILITIES } from "../../../src/protocol/schemas/capabilities.ts";
import {
  InitializeParamsSchema,
  InitializeResultSchema,
  LimitsSchema,
} from "../../../src/protocol/schemas/initialize.ts";
import { assertAccepts, assertRejects, without } from "./_assert.ts";

// Spec examples (local-agent-protocol.md, client-tools.md §1), params only.
const BASE_EXAMPLE = { required_capabilities: ["status", "shutdown"] };
const MINIMAL_EXAMPLE = {
  required_capabilities: ["session.create", "turn.start", "history.page", "shutdown"],
};
const CLIENT_TOOLS_EXAMPLE = JSON.parse(
  `{"required_capabilities":["client.tools","session.create","turn.start","shutdown"],
  "client_tools":[{"name":"lookup_ticket","description":"Fetch one ticket by id.",
   "input_schema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false},
   "effect":"read"}]}`,
);
const TOOL = CLIENT_TOOLS_EXAMPLE.client_tools[0];

function names(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `cap${i}`);
}

Deno.test("InitializeParamsSchema accepts the spec examples", () => {
  assertAccepts(InitializeParamsSchema, [
    ["base example", BASE_EXAMPLE],
    ["minimal base-only example", MINIMAL_EXAMPLE],
    ["client.tools example", CLIENT_TOOLS_EXAMPLE],
    ["empty list", { required_capabilities: [] }],
    ["client.tools with no tools", { required_capabilities: ["client.tools"], client_tools: [] }],
    ["unknown capability name is well-formed", { required_capabilities: ["future.op"] }],
  ]);
});

Deno.test("InitializeParamsSchema bounds required_capabilities by negotiation", () => {
  const withTools = (n: number) => ({
    required_capabilities: ["client.tools", ...names(n - 1)],
    client_tools: [],
  });
  assertAccepts(InitializeParamsSchema, [
    ["16 base", { required_capabilities: names(16) }],
    ["18 with client.tools", withTools(18)],
  ]);
  assertRejects(InitializeParamsSchema, [
    ["17 base", { required_capabilities: names(17) }],
    ["18 base", { required_capabilities: names(18) }],
    ["19 with client.tools", withTools(19)],
    ["17 without client.tools but with client_tools", {
      required_capabilities: names(17),
      client_tools: [],
    }],
  ]);
});

Deno.test("InitializeParamsSchema rejects client_tools/client.tools mismatch and bad shape", () => {
  assertRejects(InitializeParamsSchema, [
    ["client_tools without client.tools", { ...BASE_EXAMPLE, client_tools: [TOOL] }],
    ["client.tools without client_tools", { required_capabilities: ["client.tools"] }],
    ["unknown field", { ...BASE_EXAMPLE, extra: true }],
    ["missing required_capabilities", {}],
    ["capability name with space", { required_capabilities: ["a b"] }],
    ["capability name of 65 bytes", { required_capabilities: ["x".repeat(65)] }],
    ["null client_tools", { required_capabilities: ["client.tools"], client_tools: null }],
    ["invalid tool inside", {
      required_capabilities: ["client.tools"],
      client_tools: [{ ...TOOL, effect: "READ" }],
    }],
  ]);
});

const STATUS = {
  state: "idle",
  readiness: "ready",
  provider: "configured-provider",
  model: "cached-model",
  context_id: "0".repeat(64),
  session_id: null,
  run_id: null,
  selection: null,
};
const BASE_RESULT = { capabilities: [...BASE_CAPABILITIES], limits: { ...LIMITS }, status: STATUS };
const CLIENT_TOOLS_DESCRIPTOR = {
  version: 1,
  tools: [{ name: "lookup_ticket", tool_id: "ab".repeat(32) }],
  limits: { ...CLIENT_TOOLS_LIMITS },
};
const TOOL_CARDS_DESCRIPTOR = {
  version: 1,
  limits: { title_bytes: 256, fields: 16, field_bytes: 1024 },
};

Deno.test("InitializeResultSchema accepts base and negotiated results", () => {
  assertAccepts(InitializeResultSchema, [
    ["base", BASE_RESULT],
    ["client.tools", {
      ...BASE_RESULT,
      capabilities: [...BASE_CAPABILITIES, "client.tools"],
      descriptors: { "client.tools": CLIENT_TOOLS_DESCRIPTOR },
    }],
    ["both extensions", {
      ...BASE_RESULT,
      capabilities: [...BASE_CAPABILITIES, "tool.cards", "client.tools"],
      descriptors: { "client.tools": CLIENT_TOOLS_DESCRIPTOR, "tool.cards": TOOL_CARDS_DESCRIPTOR },
    }],
    ["failed status", {
      ...BASE_RESULT,
      status: { ...STATUS, state: "failed", readiness: "provider_unavailable", context_id: null },
    }],
  ]);
});

Deno.test("InitializeResultSchema rejects wrong capabilities, descriptors and fields", () => {
  assertRejects(InitializeResultSchema, [
    ["unknown field", { ...BASE_RESULT, extra: 1 }],
    ["missing limits", without(BASE_RESULT, "limits")],
    ["missing status", without(BASE_RESULT, "status")],
    ["base out of order", {
      ...BASE_RESULT,
      capabilities: [...BASE_CAPABILITIES].reverse(),
    }],
    ["fifteen base", { ...BASE_RESULT, capabilities: BASE_CAPABILITIES.slice(1) }],
    ["unknown extension", { ...BASE_RESULT, capabilities: [...BASE_CAPABILITIES, "x.y"] }],
    ["extension twice", {
      ...BASE_RESULT,
      capabilities: [...BASE_CAPABILITIES, "client.tools", "client.tools"],
      descriptors: { "client.tools": CLIENT_TOOLS_DESCRIPTOR },
    }],
    ["extension without descriptors", {
      ...BASE_RESULT,
      capabilities: [...BASE_CAPABILITIES, "client.tools"],
    }],
    ["descriptors without extension", {
      ...BASE_RESULT,
      descriptors: { "client.tools": CLIENT_TOOLS_DESCRIPTOR },
    }],
    ["descriptor for another extension", {
      ...BASE_RESULT,
      capabilities: [...BASE_CAPABILITIES, "client.tools"],
      descriptors: { "tool.cards": TOOL_CARDS_DESCRIPTOR },
    }],
    ["unknown descriptor key", {
      ...BASE_RESULT,
      capabilities: [...BASE_CAPABILITIES, "client.tools"],
      descriptors: { "client.tools": CLIENT_TOOLS_DESCRIPTOR, other: {} },
    }],
    ["descriptor version 2", {
      ...BASE_RESULT,
      capabilities: [...BASE_CAPABILITIES, "client.tools"],
      descriptors: { "client.tools": { ...CLIENT_TOOLS_DESCRIPTOR, version: 2 } },
    }],
    ["invalid status", { ...BASE_RESULT, status: { ...STATUS, state: "Idle" } }],
  ]);
});

Deno.test("LimitsSchema requires exactly every LIMITS name as an integer", () => {
  assertAccepts(LimitsSchema, [["LIMITS", { ...LIMITS }]]);
  assertRejects(LimitsSchema, [
    ["missing one", without({ ...LIMITS }, "prompt_bytes")],
    ["extra", { ...LIMITS, extra_bytes: 1 }],
    ["fraction", { ...LIMITS, json_depth: 32.5 }],
    ["string", { ...LIMITS, json_depth: "32" }],
    ["negative", { ...LIMITS, json_depth: -1 }],
  ]);
});
