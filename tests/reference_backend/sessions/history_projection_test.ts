import assert from "node:assert/strict";
import {
  projectHistory,
  sanitize,
  splitEscaped,
} from "../../../src/reference_backend/sessions/history_projection.ts";
import type { StoredRecord } from "../../../src/reference_backend/sessions/session_store.ts";

function rec(type: string, fields: Record<string, unknown> = {}): StoredRecord {
  return { type, session_id: "s", timestamp: "2026-01-01T00:00:00Z", ...fields };
}

const SPLITS: [string, string, number, string[]][] = [
  ["plain ASCII", "abcdef", 4, ["abcd", "ef"]],
  ["quotes count twice", '""""', 4, ['""', '""']],
  ["a code point is never split", "aé€😀", 4, ["aé", "€", "😀"]],
  ["empty text is one empty part", "", 4, [""]],
  ["LF and tab are escaped (2 bytes)", "\n\t\n", 4, ["\n\t", "\n"]],
];

for (const [name, text, max, parts] of SPLITS) {
  Deno.test(`splitEscaped(): ${name}`, () => {
    assert.deepEqual(splitEscaped(text, max), parts);
    for (const part of splitEscaped(text, max)) {
      assert.ok(new TextEncoder().encode(JSON.stringify(part)).byteLength - 2 <= max);
    }
  });
}

Deno.test("sanitize() keeps LF and tab, replaces other controls and lone surrogates", () => {
  assert.equal(sanitize("a\u0000b\nc\td\u009f\ud800"), "a b\nc\td \ufffd");
});

Deno.test("projectHistory() reconciles, filters provenance and marks interrupted turns", () => {
  const records = [
    rec("title", { title: "T" }),
    rec("user", { run_id: "r1", message_id: "u1", text: "hi" }),
    rec("assistant", { run_id: "r1", message_id: "a1", chunks: ["legacy ", "reply"] }),
    rec("reasoning_summary", { run_id: "r1", item_id: "x", text: "one", provider_summary: true }),
    rec("reasoning_summary", { run_id: "r1", text: "hidden" }),
    rec("reasoning_summary", { run_id: "r1", item_id: "x", text: "two", provider_summary: true }),
    rec("activity", { run_id: "r1", name: "shell", state: "started", summary: "ls" }),
    rec("tool_card", {
      run_id: "r1",
      card_id: "c1",
      title: "Card",
      state: "completed",
      fields: [],
    }),
    rec("session_preferences", { provider: "p", model: "m", effort: "default" }),
    rec("run_finished", { run_id: "r1", outcome: "cancelled", error_code: null }),
    rec("user", { run_id: "r2", message_id: "u1", text: "again" }),
  ];
  const base = projectHistory(records, { cards: false });
  assert.equal(base.complete, false);
  assert.deepEqual(base.entries.map((e) => [e.kind, e.text, e.partial]), [
    ["user", "hi", false],
    ["assistant", "legacy reply", false],
    ["reasoning_summary", "two", false],
    ["activity", "shell started: ls", true],
    ["diagnostic", "Run cancelled", false],
    ["user", "again", false],
    ["diagnostic", "Turn interrupted without durable completion", true],
  ]);
  assert.notEqual(base.entries[5]?.message_id, "u1", "a repeated stored ID is replaced");
  const cards = projectHistory(records, { cards: true });
  const card = cards.entries.find((e) => e.kind === "tool_card");
  assert.equal(JSON.parse(String(card?.text)).title, "Card");
});

Deno.test("projectHistory() chunks long text into contiguous parts", () => {
  const text = "x".repeat(40_000);
  const { entries, complete } = projectHistory([
    rec("user", { run_id: "r", message_id: "u", text }),
    rec("run_finished", { run_id: "r", outcome: "completed", error_code: null }),
  ], { cards: false });
  assert.equal(complete, true);
  assert.deepEqual(entries.map((e) => [e.part, e.last_part, e.text.length]), [
    [0, false, 16_384],
    [1, false, 16_384],
    [2, true, 7_232],
  ]);
});
