import {
  ModelCatalogParamsSchema,
  ModelCatalogResultSchema,
} from "../../../src/protocol/schemas/catalog.ts";
import { assertAccepts, assertRejects, without } from "./_assert.ts";

const CHOICE = {
  selection_id: "9f".repeat(32),
  provider: "configured-provider",
  model: "cached-model",
  provider_name: "Configured",
  model_name: null,
  availability: "available",
  effort_support: "supported",
  permitted_efforts: ["default", "low", "medium", "high"],
};
const RESULT = {
  revision: "cat-1",
  choices: [CHOICE],
  next_cursor: null,
  complete: true,
  notices: [],
  source: "cache_only",
};

Deno.test("ModelCatalogParamsSchema accepts the spec example { limit: 10 }", () => {
  assertAccepts(ModelCatalogParamsSchema, [["spec example", { limit: 10 }], ["empty", {}]]);
  assertRejects(ModelCatalogParamsSchema, [
    ["limit 101", { limit: 101 }],
    ["revision only", { revision: "r", cursor: null }],
  ]);
});

Deno.test("ModelCatalogResultSchema checks choices, order and source", () => {
  assertAccepts(ModelCatalogResultSchema, [
    ["one", RESULT],
    ["ordered by provider then model", {
      ...RESULT,
      choices: [
        { ...CHOICE, provider: "a", model: "z" },
        { ...CHOICE, provider: "b", model: "a" },
        { ...CHOICE, provider: "b", model: "b" },
      ],
    }],
    ["auth unavailable", {
      ...RESULT,
      choices: [{ ...CHOICE, availability: "authentication_unavailable" }],
    }],
  ]);
  assertRejects(ModelCatalogResultSchema, [
    ["out of order", {
      ...RESULT,
      choices: [{ ...CHOICE, model: "b" }, { ...CHOICE, model: "a" }],
    }],
    ["duplicate choice", { ...RESULT, choices: [CHOICE, CHOICE] }],
    ["source remote", { ...RESULT, source: "remote" }],
    ["unknown availability", { ...RESULT, choices: [{ ...CHOICE, availability: "unknown" }] }],
    ["unknown effort", { ...RESULT, choices: [{ ...CHOICE, permitted_efforts: ["minimal"] }] }],
    ["choice extra", { ...RESULT, choices: [{ ...CHOICE, url: "https://x" }] }],
    ["missing provider_name", { ...RESULT, choices: [without(CHOICE, "provider_name")] }],
    ["missing source", without(RESULT, "source")],
  ]);
});
