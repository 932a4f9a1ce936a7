import {
  ToolCardDataSchema,
  ToolCardsDescriptorSchema,
} from "../../../src/protocol/schemas/tool_cards.ts";
import { assertAccepts, assertRejects, without } from "./_assert.ts";

// wire-contract.md tool.cards descriptor.
const DESCRIPTOR = { version: 1, limits: { title_bytes: 256, fields: 16, field_bytes: 1024 } };
const CARD = {
  session_id: "saved-id",
  run_id: "run-1",
  card_id: "card-1",
  activity_id: "activity-1",
  title: "Lookup ticket",
  state: "completed",
  fields: [{ label: "Ticket", value: "T-1" }],
};

Deno.test("ToolCardsDescriptorSchema accepts the wire contract's descriptor", () => {
  assertAccepts(ToolCardsDescriptorSchema, [["descriptor", DESCRIPTOR]]);
  assertRejects(ToolCardsDescriptorSchema, [
    ["version 2", { ...DESCRIPTOR, version: 2 }],
    ["extra limit", { ...DESCRIPTOR, limits: { ...DESCRIPTOR.limits, x: 1 } }],
    ["missing limits", without(DESCRIPTOR, "limits")],
  ]);
});

Deno.test("ToolCardDataSchema checks tool.card event data", () => {
  const fields = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ label: `l${i}`, value: "" }));
  assertAccepts(ToolCardDataSchema, [
    ["card", CARD],
    ["16 fields", { ...CARD, fields: fields(16) }],
    ["256-byte title", { ...CARD, title: "é".repeat(128) }],
    ["1024-byte value", { ...CARD, fields: [{ label: "x", value: "v".repeat(1024) }] }],
  ]);
  assertRejects(ToolCardDataSchema, [
    ["17 fields", { ...CARD, fields: fields(17) }],
    ["257-byte title", { ...CARD, title: "é".repeat(128) + "a" }],
    ["1025-byte value", { ...CARD, fields: [{ label: "x", value: "v".repeat(1025) }] }],
    ["unknown state", { ...CARD, state: "running" }],
    ["field extra key", { ...CARD, fields: [{ label: "a", value: "b", kind: "c" }] }],
    ["missing run_id", without(CARD, "run_id")],
    ["unknown field", { ...CARD, extra: 1 }],
  ]);
});
