import assert from "node:assert/strict";
import { parseScenario, pickTurn } from "../../../src/reference_backend/provider/scenario.ts";

Deno.test("parseScenario() reads every step kind from JSONC", () => {
  const parsed = parseScenario(`{
    // comment
    "turns": [{ "match": "x", "steps": [
      { "say": "hi", "repeat": 2 },
      { "call": { "tool": "t", "arguments": { "a": 1 }, "label": "l" } },
      { "call": [{ "tool": "t" }, { "tool": "u" }] },
      { "builtin": "shell", "approval": true },
      { "sleep": 5 },
      { "diagnostic": { "code": "note", "summary": "s" } },
      { "fail": "execution_failed" },
    ] }]
  }`);
  assert.ok(parsed.ok);
  const steps = parsed.scenario.turns[0]!.steps;
  assert.deepEqual(steps.map((s) => s.kind), [
    "say",
    "call",
    "call",
    "builtin",
    "sleep",
    "diagnostic",
    "fail",
  ]);
  assert.deepEqual(steps[1], {
    kind: "call",
    calls: [{ tool: "t", arguments: { a: 1 }, label: "l" }],
  });
  assert.deepEqual(steps[3], {
    kind: "builtin",
    tool: "shell",
    summary: "Run shell",
    approval: true,
    outcome: "completed",
    output: "",
    label: null,
    card: null,
  });
});

Deno.test("parseScenario() reads title, reasoning, compaction and card steps", () => {
  const parsed = parseScenario(JSON.stringify({
    turns: [{
      steps: [
        { title: "Fix the build" },
        { reasoning: "Checked the log", item: "r1" },
        { reasoning: "Unverified", provider_summary: false },
        { compaction: "Earlier talk", title: "Compacted" },
        {
          builtin: "edit",
          card: { title: "Edit a.ts", fields: [{ label: "file", value: "a.ts" }] },
        },
      ],
    }],
  }));
  assert.ok(parsed.ok);
  const steps = parsed.scenario.turns[0]?.steps ?? [];
  assert.deepEqual(steps[0], { kind: "title", text: "Fix the build" });
  assert.deepEqual(steps[1], {
    kind: "reasoning",
    text: "Checked the log",
    item: "r1",
    providerSummary: true,
  });
  assert.deepEqual(steps[2], {
    kind: "reasoning",
    text: "Unverified",
    item: null,
    providerSummary: false,
  });
  assert.deepEqual(steps[3], { kind: "compaction", summary: "Earlier talk", title: "Compacted" });
  assert.deepEqual((steps[4] as { card: unknown }).card, {
    title: "Edit a.ts",
    fields: [{ label: "file", value: "a.ts" }],
  });
});

const INVALID: [string, string][] = [
  ["not JSON", "{"],
  ["no turns", "{}"],
  ["an unknown step", '{"turns":[{"steps":[{"dance":1}]}]}'],
  ["an unknown field in a step", '{"turns":[{"steps":[{"say":"x","loud":true}]}]}'],
  ["an unknown built-in", '{"turns":[{"steps":[{"builtin":"rm"}]}]}'],
  ["a negative sleep", '{"turns":[{"steps":[{"sleep":-1}]}]}'],
  ["an unknown failure code", '{"turns":[{"steps":[{"fail":"busy"}]}]}'],
  ["a bad diagnostic code", '{"turns":[{"steps":[{"diagnostic":{"code":"Bad","summary":""}}]}]}'],
  ["an oversized expansion", '{"turns":[{"steps":[{"say":"xx","repeat":67108864}]}]}'],
];

for (const [name, text] of INVALID) {
  Deno.test(`parseScenario() rejects ${name}`, () => {
    assert.equal(parseScenario(text).ok, false);
  });
}

Deno.test("pickTurn() takes the first matching turn and falls back to null", () => {
  const parsed = parseScenario(
    '{"turns":[{"match":"a","steps":[{"say":"A"}]},{"match":"b","steps":[{"say":"B"}]}]}',
  );
  assert.ok(parsed.ok);
  assert.equal(pickTurn(parsed.scenario, "xbx")?.match, "b");
  assert.equal(pickTurn(parsed.scenario, "ab")?.match, "a");
  assert.equal(pickTurn(parsed.scenario, "zzz"), null);
});

Deno.test("the shipped example scenario parses", async () => {
  const text = await Deno.readTextFile(
    new URL("../../../src/reference_backend/scenarios/example.jsonc", import.meta.url),
  );
  assert.equal(parseScenario(text).ok, true);
});
