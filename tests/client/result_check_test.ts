import assert from "node:assert/strict";
import { z } from "zod";
import { describeIssues, parseExact, parseTolerant } from "../../src/client/result_check.ts";

const Schema = z.strictObject({
  n: z.number(),
  limits: z.strictObject({ a: z.int(), b: z.int() }),
  state: z.enum(["idle", "running"]),
  items: z.array(z.strictObject({ id: z.string() })),
  kind: z.discriminatedUnion("k", [
    z.strictObject({ k: z.literal("a"), x: z.number() }),
    z.strictObject({ k: z.literal("b") }),
  ]),
  either: z.union([
    z.strictObject({ x: z.number() }),
    z.strictObject({ x: z.number(), y: z.number() }),
  ]),
});

const VALID = {
  n: 1,
  limits: { a: 1, b: 2 },
  state: "idle",
  items: [{ id: "i1" }],
  kind: { k: "a", x: 1 },
  either: { x: 1, y: 2 },
};

Deno.test("parseTolerant() accepts a valid value unchanged", () => {
  assert.deepEqual(parseTolerant(Schema, VALID), { ok: true, data: VALID });
});

Deno.test("parseTolerant() drops unknown fields at every depth, never modifying its input", () => {
  const input = {
    ...VALID,
    future: { deep: [1] },
    limits: { a: 1, b: 2, c: 3 },
    items: [{ id: "i1", extra: true }],
    kind: { k: "a", x: 1, extra: 1 },
    either: { x: 1, y: 2, z: 3 },
  };
  const copy = structuredClone(input);
  assert.deepEqual(parseTolerant(Schema, input), { ok: true, data: VALID });
  assert.deepEqual(input, copy);
});

const FAILURES: [string, Record<string, unknown>, string][] = [
  ["an unknown enum value", { ...VALID, state: "paused", future: 1 }, "state: invalid_value"],
  ["a wrong type", { ...VALID, limits: { a: "1", b: 2, c: 3 } }, "limits.a: expected number"],
  ["a missing field", { ...VALID, n: undefined }, "n: expected number"],
  ["an unknown discriminator", { ...VALID, kind: { k: "c" } }, "kind.k: invalid_union"],
  [
    "a wrong type next to an unknown field",
    { ...VALID, items: [{ id: 1, x: 1 }] },
    "items.0.id: expected string",
  ],
];
for (const [name, input, detail] of FAILURES) {
  Deno.test(`parseTolerant() fails closed on ${name}`, () => {
    assert.deepEqual(parseTolerant(Schema, input), { ok: false, detail });
  });
}

Deno.test("parseExact() fails on an unknown field and names it", () => {
  assert.deepEqual(parseExact(Schema, { ...VALID, limits: { a: 1, b: 2, c: 3 } }), {
    ok: false,
    detail: "limits: unknown field c",
  });
});

Deno.test("describeIssues() never echoes values and bounds names and length", () => {
  const secret = "sk-" + "x".repeat(500);
  const result = parseExact(z.strictObject({ a: z.number() }), {
    a: secret,
    [`bad key\n${secret}`]: 1,
  });
  assert.ok(!result.ok);
  assert.equal(result.detail, "a: expected number");
  const unknown = parseExact(z.strictObject({}), { [secret]: 1, b: 1, c: 1, d: 1 });
  assert.ok(!unknown.ok);
  assert.equal(unknown.detail, "(root): unknown fields ?, b, c and 1 more");
  const long = describeIssues([{
    code: "invalid_type",
    expected: "number",
    path: Array.from({ length: 100 }, () => "segment"),
    message: "",
    input: secret,
  }]);
  assert.ok(long.length <= 200 && !long.includes("sk-"), long);
});
