import assert from "node:assert/strict";
import {
  parseCatalogCache,
  safeIdentifier,
} from "../../../src/reference_backend/catalog/catalog_cache.ts";
import { requestedEffort } from "../../../src/reference_backend/worker/operations.ts";
import { effectiveEffort } from "../../../src/reference_backend/catalog/selection_state.ts";

function cache(models: unknown[], provider = "p"): string {
  return JSON.stringify({ version: 1, provider, models });
}

Deno.test("parseCatalogCache() reads effort support from the efforts list", () => {
  const parsed = parseCatalogCache(
    cache([
      { id: "a", efforts: ["low", "high"], name: "A" },
      { id: "b", efforts: [] },
      { id: "c", name: "bad\u0007name" },
      { id: "sk-0123456789abcdef" },
    ]),
    "p",
  );
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.cache.models.map((m) => [m.id, m.support, m.permitted, m.name]), [
    ["a", "supported", ["default", "low", "high"], "A"],
    ["b", "unsupported", ["default"], null],
    ["c", "unknown", ["default"], null],
  ]);
  assert.equal(parsed.cache.unsafe, 1);
});

const PROBLEMS: [string, string, string][] = [
  ["not JSON", "{", "invalid"],
  ["another provider", cache([{ id: "a" }], "q"), "invalid"],
  ["no models", cache([]), "invalid"],
  ["an unknown effort", cache([{ id: "a", efforts: ["extreme"] }]), "invalid"],
  ["a duplicate model", cache([{ id: "a" }, { id: "a" }]), "duplicate"],
  ["an overlong identifier", cache([{ id: "m".repeat(257) }]), "overlong"],
];

for (const [name, text, problem] of PROBLEMS) {
  Deno.test(`parseCatalogCache() rejects ${name} as ${problem}`, () => {
    const parsed = parseCatalogCache(text, "p");
    assert.deepEqual(parsed, { ok: false, problem });
  });
}

Deno.test("safeIdentifier() refuses controls and secret-like names", () => {
  assert.equal(safeIdentifier("gpt-5.1"), true);
  assert.equal(safeIdentifier("a\u0000b"), false);
  assert.equal(safeIdentifier("my_api_key"), false);
});

const EFFORTS: [string, Parameters<typeof requestedEffort>, string | null][] = [
  ["keep keeps a permitted level", [{ mode: "keep" }, "high", ["default", "high"]], "high"],
  ["keep of an unpermitted level", [{ mode: "keep" }, "high", ["default"]], null],
  ["keep of default", [{ mode: "keep" }, "default", ["default"]], "default"],
  ["default resets", [{ mode: "default" }, "high", ["default"]], "default"],
  ["set a permitted level", [{ mode: "set", value: "low" }, "default", ["default", "low"]], "low"],
  ["set an unpermitted level", [{ mode: "set", value: "max" }, "default", ["default"]], null],
];

for (const [name, args, expected] of EFFORTS) {
  Deno.test(`requestedEffort(): ${name}`, () => {
    assert.equal(requestedEffort(...args), expected);
  });
}

Deno.test("effectiveEffort() resolves only supported controls", () => {
  const base = { provider: "p", model: "m", permitted: ["default", "high"] as const };
  assert.equal(
    effectiveEffort({
      ...base,
      permitted: [...base.permitted],
      requested: "high",
      support: "supported",
    }),
    "high",
  );
  assert.equal(
    effectiveEffort({ ...base, permitted: ["default"], requested: "high", support: "supported" }),
    "default",
  );
  assert.equal(
    effectiveEffort({ ...base, permitted: ["default"], requested: "high", support: "unknown" }),
    null,
  );
});
