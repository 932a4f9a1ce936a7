import {
  ModelCatalogStatusParamsSchema,
  ModelCatalogStatusResultSchema,
  ModelRefreshParamsSchema,
  ModelRefreshResultSchema,
  OperationCancelParamsSchema,
  OperationCancelResultSchema,
  SessionDiscoverParamsSchema,
  SessionDiscoverResultSchema,
} from "../../../src/protocol/schemas/opt_in.ts";
import { assertAccepts, assertRejects, without } from "./_assert.ts";

Deno.test("operation.cancel takes an operation_id and acknowledges", () => {
  assertAccepts(OperationCancelParamsSchema, [["id", { operation_id: "catalog1" }]]);
  assertRejects(OperationCancelParamsSchema, [
    ["missing", {}],
    ["bad id", { operation_id: "a b" }],
    ["extra", { operation_id: "x", force: true }],
  ]);
  assertAccepts(OperationCancelResultSchema, [["ok", { cancellation_requested: true }]]);
});

const ENTRY = {
  session_id: "a-id",
  title: null,
  updated_at: null,
  eligibility: "available",
  notices: [],
};
const DISCOVERED = {
  sessions: [ENTRY],
  next_cursor: null,
  complete: true,
  provisional: true,
  notices: [],
};

Deno.test("session.discover params default cursor/limit; result is provisional", () => {
  assertAccepts(SessionDiscoverParamsSchema, [
    ["empty", {}],
    ["full", { cursor: "c1", limit: 100 }],
    ["null cursor", { cursor: null, limit: 1 }],
  ]);
  assertRejects(SessionDiscoverParamsSchema, [
    ["limit 0", { limit: 0 }],
    ["limit 101", { limit: 101 }],
    ["revision", { revision: null }],
  ]);
  assertAccepts(SessionDiscoverResultSchema, [["page", DISCOVERED]]);
  assertRejects(SessionDiscoverResultSchema, [
    ["provisional false", { ...DISCOVERED, provisional: false }],
    ["missing provisional", without(DISCOVERED, "provisional")],
    ["has revision", { ...DISCOVERED, revision: "r" }],
    ["descending", { ...DISCOVERED, sessions: [ENTRY, { ...ENTRY, session_id: "A" }] }],
  ]);
});

const PROVIDER = {
  provider: "anthropic",
  state: "available",
  cached_models: 12,
  reasons: [],
};

Deno.test("model.catalog.status params are {}; providers ascending with fixed states", () => {
  assertAccepts(ModelCatalogStatusParamsSchema, [["empty", {}]]);
  assertRejects(ModelCatalogStatusParamsSchema, [["extra", { provider: "x" }]]);
  assertAccepts(ModelCatalogStatusResultSchema, [
    ["none", { providers: [] }],
    ["two", {
      providers: [PROVIDER, {
        ...PROVIDER,
        provider: "openai",
        state: "authentication_unavailable",
        reasons: ["authentication_missing"],
      }],
    }],
    ...["catalog_unavailable", "not_enabled"].map((state) =>
      [state, { providers: [{ ...PROVIDER, state }] }] as const
    ),
  ]);
  assertRejects(ModelCatalogStatusResultSchema, [
    ["descending", { providers: [{ ...PROVIDER, provider: "z" }, PROVIDER] }],
    ["unknown state", { providers: [{ ...PROVIDER, state: "ready" }] }],
    ["reason not a code", { providers: [{ ...PROVIDER, reasons: ["/home/x/.cache"] }] }],
    ["negative count", { providers: [{ ...PROVIDER, cached_models: -1 }] }],
    ["extra", { providers: [{ ...PROVIDER, path: "/x" }] }],
  ]);
});

Deno.test("model.refresh names one provider and reports the model count", () => {
  assertAccepts(ModelRefreshParamsSchema, [["provider", { provider: "anthropic" }]]);
  assertRejects(ModelRefreshParamsSchema, [["empty provider", { provider: "" }], ["missing", {}]]);
  assertAccepts(ModelRefreshResultSchema, [["refreshed", {
    provider: "anthropic",
    refreshed: true,
    models: 3,
  }]]);
  assertRejects(ModelRefreshResultSchema, [
    ["refreshed false", { provider: "a", refreshed: false, models: 3 }],
    ["missing models", { provider: "a", refreshed: true }],
  ]);
});
