/**
 * The `tool.cards` extension: negotiation, descriptor, live `tool.card` events for
 * built-in tool activities, and saved cards in history only for negotiating clients.
 */

import assert from "node:assert/strict";
import { type Backend, withBackend, Workspace } from "./_harness.ts";
import { BASE_CAPABILITIES, readTool, runEvents, startTurn, waitFinished } from "./_fixtures.ts";
import { allHistory, initializeAll } from "./_stored.ts";

const SCENARIO = {
  turns: [{
    steps: [
      {
        builtin: "edit",
        summary: "Edit a.ts",
        output: "RAW-DIFF",
        card: { title: "Edited a.ts", fields: [{ label: "file", value: "a.ts" }] },
      },
      { builtin: "shell", summary: "Run tests", outcome: "failed" },
      { say: "Done" },
    ],
  }],
};

async function withCards(body: (ws: Workspace, path: string) => Promise<void>): Promise<void> {
  const ws = await Workspace.create();
  try {
    await body(ws, await ws.writeScenario(SCENARIO));
  } finally {
    await ws.dispose();
  }
}

async function runTurn(b: Backend) {
  const run = await startTurn(b, "edit please");
  const fin = await waitFinished(b, run);
  return { run, revision: String(fin.data.revision), events: runEvents(b, run) };
}

Deno.test("tool.cards negotiation adds the capability and its descriptor", async () => {
  await withBackend({}, async (b) => {
    b.allowClientTools();
    b.allowToolCards();
    const result = await b.call("initialize", {
      required_capabilities: ["tool.cards", "client.tools"],
      client_tools: [readTool()],
    });
    assert.deepEqual(result.capabilities, [...BASE_CAPABILITIES, "tool.cards", "client.tools"]);
    const descriptors = result.descriptors as Record<string, unknown>;
    assert.deepEqual(descriptors["tool.cards"], {
      version: 1,
      limits: { title_bytes: 256, fields: 16, field_bytes: 1024 },
    });
    assert.ok("client.tools" in descriptors);
  });
});

Deno.test("built-in activities produce tool.card events and saved tool_card entries", async () => {
  await withCards(async (ws, path) => {
    await withBackend({ workspace: ws, env: { MAGI_SCENARIO: path } }, async (b) => {
      await initializeAll(b, ["tool.cards"]);
      const { run, revision, events } = await runTurn(b);
      const cards = events.filter((e) => e.event === "tool.card");
      assert.deepEqual(cards.map((c) => c.data.state), [
        "started",
        "completed",
        "started",
        "failed",
      ]);
      const activities = events.filter((e) => e.event === "activity");
      assert.equal(cards[0]?.data.activity_id, activities[0]?.data.activity_id);
      assert.equal(cards[0]?.data.card_id, cards[1]?.data.card_id, "one card per activity");
      assert.equal(cards[0]?.data.title, "Edited a.ts");
      assert.deepEqual(cards[0]?.data.fields, [{ label: "file", value: "a.ts" }]);
      const entries = (await allHistory(b, run.sessionId, revision))
        .flatMap((p) => p.entries as Record<string, unknown>[]);
      const saved = entries.filter((e) => e.kind === "tool_card");
      assert.equal(saved.length, 2);
      const card = JSON.parse(String(saved[0]?.text));
      assert.equal(card.title, "Edited a.ts");
      assert.equal(card.state, "completed");
      assert.equal(card.card_id, cards[0]?.data.card_id);
      assert.ok(entries.every((e) => !String(e.text).includes("RAW-DIFF")));
      assert.ok(events.every((e) => e.data.run_id === run.runId));
    });
  });
});

Deno.test("without tool.cards there are no card events and no tool_card entries", async () => {
  await withCards(async (ws, path) => {
    await withBackend({ workspace: ws, env: { MAGI_SCENARIO: path } }, async (b) => {
      await initializeAll(b);
      const { run, revision, events } = await runTurn(b);
      assert.ok(events.every((e) => e.event !== "tool.card"));
      const entries = (await allHistory(b, run.sessionId, revision))
        .flatMap((p) => p.entries as Record<string, unknown>[]);
      assert.ok(entries.every((e) => e.kind !== "tool_card"));
      assert.equal(entries.filter((e) => e.kind === "activity").length, 2);
    });
  });
});
