import assert from "node:assert/strict";
import {
  isClientToolCallData,
  isClientToolCancelData,
  isClientToolResultResult,
} from "../../src/client/fast_checks.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";
import {
  ClientToolCallDataSchema,
  ClientToolCancelDataSchema,
  ClientToolResultResultSchema,
} from "../../src/protocol/schemas/client_tools.ts";
import type { z } from "zod";

type Value = Record<string, unknown>;

const CALL: Value = {
  session_id: "s-1",
  run_id: "run.1",
  call_id: "c_1",
  name: "lookup",
  tool_id: "a".repeat(64),
  arguments: { id: "T-1", nested: { list: [1, "é"] } },
  deadline_ms: 30_000,
};
const CANCEL: Value = { session_id: "s1", run_id: "r1", call_id: "c1", reason: "deadline" };
const RESULT: Value = { recorded: true, complete: false };

/** `base` with `key` set to `value` (or removed when `value` is `REMOVE`). */
const REMOVE = Symbol("remove");
function variant(base: Value, key: string, value: unknown): Value {
  const copy = structuredClone(base);
  if (value === REMOVE) delete copy[key];
  else copy[key] = value;
  return copy;
}

/** Values with one field changed: missing, extra, wrong type, out of grammar or bounds. */
function mutations(base: Value, bad: Record<string, unknown[]>): Value[] {
  const out: Value[] = [variant(base, "extra", 1)];
  for (const key of Object.keys(base)) {
    out.push(variant(base, key, REMOVE), variant(base, key, null));
    for (const value of bad[key] ?? []) out.push(variant(base, key, value));
  }
  return out;
}

const CASES: {
  name: string;
  check: (value: never) => boolean;
  schema: z.ZodType;
  valid: Value[];
  invalid: Value[];
}[] = [
  {
    name: "client.tool.call data",
    check: isClientToolCallData,
    schema: ClientToolCallDataSchema,
    valid: [
      CALL,
      variant(CALL, "arguments", {}),
      variant(CALL, "deadline_ms", 0),
      variant(CALL, "session_id", "x".repeat(64)),
    ],
    invalid: mutations(CALL, {
      session_id: ["", "a.b", "x".repeat(65), 1],
      run_id: ["", "r 1", "x".repeat(65)],
      call_id: ["", "c/1"],
      name: ["1tool", "", "a.b", "x".repeat(65)],
      tool_id: ["A".repeat(64), "a".repeat(63), "g".repeat(64)],
      arguments: [[], "x", 1, { big: "x".repeat(CLIENT_TOOLS_LIMITS.arguments_bytes) }],
      deadline_ms: [-1, 1.5, "1", 2 ** 53, Infinity],
    }),
  },
  {
    name: "client.tool.cancel data",
    check: isClientToolCancelData,
    schema: ClientToolCancelDataSchema,
    valid: [CANCEL, variant(CANCEL, "reason", "run_cancelled")],
    invalid: mutations(CANCEL, {
      session_id: ["s.1"],
      reason: ["timeout", "", 1],
    }),
  },
  {
    name: "client.tool.result result",
    check: isClientToolResultResult,
    schema: ClientToolResultResultSchema,
    valid: [RESULT, variant(RESULT, "complete", true)],
    invalid: mutations(RESULT, { recorded: [false, "true", 1], complete: ["false", 0] }),
  },
];

for (const { name, check, schema, valid, invalid } of CASES) {
  Deno.test(`fast check of ${name} accepts the valid values zod accepts`, () => {
    for (const value of valid) {
      assert.equal(schema.safeParse(value).success, true, JSON.stringify(value));
      assert.equal(check(value as never), true, JSON.stringify(value));
    }
  });

  Deno.test(`fast check of ${name} accepts nothing zod rejects`, () => {
    assert.ok(invalid.length > 5);
    for (const value of invalid) {
      assert.equal(schema.safeParse(value).success, false, JSON.stringify(value));
      assert.equal(check(value as never), false, JSON.stringify(value));
    }
  });
}

Deno.test("fast checks leave non-objects and arrays to zod", () => {
  for (const value of [null, undefined, 1, "x", [], [CALL]]) {
    assert.equal(isClientToolCallData(value as never), false);
    assert.equal(isClientToolCancelData(value as never), false);
    assert.equal(isClientToolResultResult(value as never), false);
  }
});

Deno.test("fast check of client.tool.call data leaves a __proto__ argument key to zod", () => {
  const value = JSON.parse(JSON.stringify(CALL).replace('"id":', '"__proto__":{},"id":'));
  assert.equal(Object.hasOwn(value.arguments, "__proto__"), true);
  assert.equal(isClientToolCallData(value), false);
});
