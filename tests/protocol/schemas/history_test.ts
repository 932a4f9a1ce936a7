import {
  BaseHistoryPageResultSchema,
  HistoryPageParamsSchema,
  HistoryPageResultSchema,
} from "../../../src/protocol/schemas/history.ts";
import { assertAccepts, assertRejects, without } from "./_assert.ts";

const PARAMS = { session_id: "saved-id", revision: "rev-1", cursor: null };
const ENTRY = {
  message_id: "m1",
  kind: "assistant",
  text: "Hello",
  partial: false,
  part: 0,
  last_part: true,
};
const PAGE = {
  session_id: "saved-id",
  revision: "rev-1",
  entries: [ENTRY],
  next_cursor: null,
  complete: true,
};
const CARD_ENTRY = { ...ENTRY, kind: "tool_card", text: '{"title":"x"}' };

Deno.test("HistoryPageParamsSchema allows an omitted or null cursor", () => {
  assertAccepts(HistoryPageParamsSchema, [
    ["null cursor", PARAMS],
    ["omitted cursor", without(PARAMS, "cursor")],
    ["cursor", { ...PARAMS, cursor: "c-1" }],
  ]);
  assertRejects(HistoryPageParamsSchema, [
    ["missing revision", without(PARAMS, "revision")],
    ["missing session_id", without(PARAMS, "session_id")],
    ["65-byte cursor", { ...PARAMS, cursor: "c".repeat(65) }],
    ["unknown field", { ...PARAMS, limit: 10 }],
  ]);
});

Deno.test("HistoryPageResultSchema checks entries and the page bounds", () => {
  const kinds = ["user", "assistant", "reasoning_summary", "activity", "compaction", "diagnostic"];
  assertAccepts(HistoryPageResultSchema, [
    ["page", PAGE],
    ...kinds.map((kind) => [kind, { ...PAGE, entries: [{ ...ENTRY, kind }] }] as const),
    ["100 entries", { ...PAGE, entries: Array(100).fill(ENTRY) }],
    ["16384-byte text", { ...PAGE, entries: [{ ...ENTRY, text: "😀".repeat(4096) }] }],
    ["tool_card entry", { ...PAGE, entries: [CARD_ENTRY] }],
    ["continuation", { ...PAGE, next_cursor: "c-2", complete: false }],
  ]);
  assertRejects(HistoryPageResultSchema, [
    ["101 entries", { ...PAGE, entries: Array(101).fill(ENTRY) }],
    ["16385-byte text", { ...PAGE, entries: [{ ...ENTRY, text: "😀".repeat(4096) + "a" }] }],
    ["unknown kind", { ...PAGE, entries: [{ ...ENTRY, kind: "system" }] }],
    ["kind wrong case", { ...PAGE, entries: [{ ...ENTRY, kind: "User" }] }],
    ["entry extra field", { ...PAGE, entries: [{ ...ENTRY, role: "assistant" }] }],
    ["entry missing last_part", { ...PAGE, entries: [without(ENTRY, "last_part")] }],
    ["negative part", { ...PAGE, entries: [{ ...ENTRY, part: -1 }] }],
    ["missing complete", without(PAGE, "complete")],
  ]);
});

Deno.test("BaseHistoryPageResultSchema rejects tool_card entries for base-only clients", () => {
  assertAccepts(BaseHistoryPageResultSchema, [["page", PAGE]]);
  assertRejects(BaseHistoryPageResultSchema, [["tool_card", { ...PAGE, entries: [CARD_ENTRY] }]]);
});
