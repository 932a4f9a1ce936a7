import {
  EffortRequestSchema,
  SelectionSetParamsSchema,
  SelectionSetResultSchema,
} from "../../../src/protocol/schemas/selection.ts";
import { assertAccepts, assertRejects, specExample, without } from "./_assert.ts";

// local-agent-protocol.md selection.set example params.
const PARAMS = specExample(
  `{"session_id":"saved-id","selection_revision":"<status-selection-revision>","catalog_revision":"<catalog-revision>","provider":"configured-provider","model":"cached-model","effort":{"mode":"set","value":"high"}}`,
);
const SELECTION = specExample(
  `{"revision":"<opaque-selection-revision>","provider":"<provider>","model":"<model>","requested_effort":"high","effective_effort":"high","effort_support":"supported","permitted_efforts":["default","low","medium","high"]}`,
);
const RESULT = {
  session_id: "saved-id",
  selection: SELECTION,
  catalog_revision: "catalog-revision",
  scope: "session",
  durable: true,
  history_revision: "history-2",
  notices: [],
};

Deno.test("EffortRequestSchema accepts exactly keep, default and set with a level", () => {
  assertAccepts(EffortRequestSchema, [
    ["keep", { mode: "keep" }],
    ["default", { mode: "default" }],
    ...["low", "medium", "high", "xhigh", "max"].map((value) =>
      [`set ${value}`, { mode: "set", value }] as const
    ),
  ]);
  assertRejects(EffortRequestSchema, [
    ["set default", { mode: "set", value: "default" }],
    ["set without value", { mode: "set" }],
    ["set null value", { mode: "set", value: null }],
    ["value on keep", { mode: "keep", value: "high" }],
    ["value on default", { mode: "default", value: "low" }],
    ["unknown mode", { mode: "reset" }],
    ["mode wrong case", { mode: "Keep" }],
    ["value wrong case", { mode: "set", value: "HIGH" }],
    ["null", null],
  ]);
});

Deno.test("SelectionSetParamsSchema accepts the spec example and omitted effort", () => {
  assertAccepts(SelectionSetParamsSchema, [
    ["spec example", PARAMS],
    ["effort omitted", without(PARAMS, "effort")],
    ["256-byte provider", { ...PARAMS, provider: "é".repeat(128) }],
  ]);
});

Deno.test("SelectionSetParamsSchema rejects missing, unknown, null and unsafe fields", () => {
  assertRejects(SelectionSetParamsSchema, [
    ["missing session_id", without(PARAMS, "session_id")],
    ["missing selection_revision", without(PARAMS, "selection_revision")],
    ["missing catalog_revision", without(PARAMS, "catalog_revision")],
    ["missing provider", without(PARAMS, "provider")],
    ["missing model", without(PARAMS, "model")],
    ["null effort", { ...PARAMS, effort: null }],
    ["unknown field", { ...PARAMS, scope: "global" }],
    ["empty provider", { ...PARAMS, provider: "" }],
    ["257-byte model", { ...PARAMS, model: "é".repeat(128) + "x" }],
    ["control in model", { ...PARAMS, model: "m\n" }],
    ["revision with space", { ...PARAMS, selection_revision: "a b" }],
    ["65-byte catalog_revision", { ...PARAMS, catalog_revision: "c".repeat(65) }],
  ]);
});

Deno.test("SelectionSetResultSchema ties history_unavailable to a null history_revision", () => {
  assertAccepts(SelectionSetResultSchema, [
    ["durable", RESULT],
    ["normalized", { ...RESULT, notices: ["selection_normalized", "metadata_update_failed"] }],
    ["history unavailable", {
      ...RESULT,
      history_revision: null,
      notices: ["history_unavailable"],
    }],
  ]);
  assertRejects(SelectionSetResultSchema, [
    ["null revision without notice", { ...RESULT, history_revision: null }],
    ["notice with revision", { ...RESULT, notices: ["history_unavailable"] }],
    ["unknown notice", { ...RESULT, notices: ["other_notice"] }],
    ["scope global", { ...RESULT, scope: "global" }],
    ["durable false", { ...RESULT, durable: false }],
    ["missing selection", without(RESULT, "selection")],
    ["unknown field", { ...RESULT, extra: 1 }],
  ]);
});
