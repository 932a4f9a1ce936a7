import assert from "node:assert/strict";
import {
  BASE_CAPABILITIES,
  EVENT_NAMES,
  EVENT_SCHEMAS,
  type EventData,
  isEventName,
  isMethod,
  METHOD_SCHEMAS,
  type MethodParams,
  type MethodResult,
  METHODS,
  OPT_IN_CAPABILITIES,
} from "../../../src/protocol/schemas/mod.ts";

Deno.test("METHODS lists the sixteen base operations in order, then client.tool.result", () => {
  assert.deepEqual(METHODS, [...BASE_CAPABILITIES, "client.tool.result"]);
  assert.equal(new Set(METHODS).size, 17);
  for (const method of METHODS) {
    assert.ok(METHOD_SCHEMAS[method].params, method);
    assert.ok(METHOD_SCHEMAS[method].result, method);
  }
});

Deno.test("OPT_IN_CAPABILITIES are the four opt-in base operations", () => {
  assert.deepEqual(
    [...OPT_IN_CAPABILITIES],
    ["session.discover", "model.catalog.status", "model.refresh", "operation.cancel"],
  );
  for (const name of OPT_IN_CAPABILITIES) assert.ok(isMethod(name), name);
});

Deno.test("isMethod() and isEventName() accept exact names only", () => {
  assert.ok(isMethod("client.tool.result"));
  assert.ok(!isMethod("Turn.start"));
  assert.ok(!isMethod("client.tool.call"));
  assert.ok(!isMethod("toString"));
  assert.ok(isEventName("tool.card"));
  assert.ok(!isEventName("client.tool.result"));
  assert.ok(!isEventName("constructor"));
});

Deno.test("EVENT_SCHEMAS covers every event name and nothing else", () => {
  assert.deepEqual(Object.keys(EVENT_SCHEMAS), [...EVENT_NAMES]);
  assert.equal(EVENT_NAMES.length, 10);
});

Deno.test("every params schema rejects an unknown field", () => {
  const minimal: Record<string, unknown> = {
    "initialize": { required_capabilities: [] },
    "session.open": { session_id: "s" },
    "session.discover": {},
    "session.list": {},
    "model.catalog": {},
    "model.refresh": { provider: "p" },
    "operation.cancel": { operation_id: "o" },
    "selection.set": {
      session_id: "s",
      selection_revision: "r",
      catalog_revision: "c",
      provider: "p",
      model: "m",
    },
    "history.page": { session_id: "s", revision: "r" },
    "turn.start": { session_id: "s", prompt: "hi" },
    "turn.cancel": { session_id: "s", run_id: "r" },
    "approval.answer": { session_id: "s", run_id: "r", approval_id: "a", allow: true },
    "client.tool.result": {
      session_id: "s",
      run_id: "r",
      call_id: "c",
      part: 0,
      last_part: true,
      outcome: "success",
      text: "",
    },
  };
  for (const method of METHODS) {
    const params = (minimal[method] ?? {}) as Record<string, unknown>;
    const schema = METHOD_SCHEMAS[method].params;
    assert.ok(schema.safeParse(params).success, `${method} minimal params`);
    assert.equal(schema.safeParse({ ...params, unknown: 1 }).success, false, method);
  }
});

Deno.test("MethodParams/MethodResult/EventData resolve to the inferred types", () => {
  const params: MethodParams<"turn.start"> = { session_id: "s", prompt: "hi" };
  const result: MethodResult<"client.tool.result"> = { recorded: true, complete: false };
  const data: EventData<"client.tool.cancel"> = {
    session_id: "s",
    run_id: "r",
    call_id: "c",
    reason: "deadline",
  };
  assert.ok(METHOD_SCHEMAS["turn.start"].params.safeParse(params).success);
  assert.ok(METHOD_SCHEMAS["client.tool.result"].result.safeParse(result).success);
  assert.ok(EVENT_SCHEMAS["client.tool.cancel"].safeParse(data).success);
});
