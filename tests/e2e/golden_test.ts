import assert from "node:assert/strict";
import { matchesPattern, matchGolden } from "./golden.ts";

Deno.test('matchesPattern() treats "*" as any value and requires exact keys', () => {
  assert.ok(matchesPattern({ a: "*", b: 1 }, { a: [1], b: 1 }));
  assert.ok(!matchesPattern({ a: "*" }, { a: 1, b: 2 }));
  assert.ok(!matchesPattern({ a: 1 }, { a: 2 }));
  assert.ok(matchesPattern(["*", 2], [1, 2]));
});

Deno.test("matchGolden() matches unordered blocks in any order, other lines in order", () => {
  const golden = '{"t":1}\n# unordered\n{"t":2}\n{"t":3}\n# end\n{"t":4}\n';
  assert.equal(matchGolden(golden, [{ t: 1 }, { t: 3 }, { t: 2 }, { t: 4 }]), null);
  assert.match(matchGolden(golden, [{ t: 1 }, { t: 4 }, { t: 2 }, { t: 3 }]) ?? "", /Line 2/);
  assert.match(matchGolden(golden, [{ t: 1 }, { t: 2 }, { t: 3 }]) ?? "", /Missing/);
  assert.match(matchGolden(golden, [{ t: 1 }, { t: 2 }, { t: 3 }, { t: 4 }, {}]) ?? "", /extra/);
});
