import assert from "node:assert/strict";
import { ContentBudget } from "../../../src/reference_backend/run/segments.ts";
import { boundSummary } from "../../../src/reference_backend/run/bounded_text.ts";

const bytes = (s: string) => new TextEncoder().encode(s).byteLength;

Deno.test("ContentBudget admits at most 512 segments", () => {
  const budget = new ContentBudget();
  for (let i = 0; i < 512; i++) assert.equal(budget.admit("x"), true);
  assert.equal(budget.admit("x"), false);
});

Deno.test("ContentBudget admits at most 8 MiB of text", () => {
  const budget = new ContentBudget();
  assert.equal(budget.admit("x".repeat(8 * 1024 * 1024)), true);
  assert.equal(budget.admit("y"), false);
});

Deno.test("boundSummary() removes controls and cuts at 1024 bytes on a code point", () => {
  assert.equal(boundSummary("a\nb"), "a b");
  const cut = boundSummary("€".repeat(400));
  assert.equal(bytes(cut), 1023);
});
