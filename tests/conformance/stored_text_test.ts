/**
 * "Required visible text must be valid": a stored record whose shown text is not a
 * well-formed string makes the session `session_invalid` on open, never an empty entry.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { withBackend } from "./_harness.ts";
import { allHistory, conversation, initializeAll, inWorkspace, record } from "./_stored.ts";

const ID = "bad-text";

/** Stored records (as raw JSON lines) whose visible text is invalid. */
const INVALID: ReadonlyArray<readonly [string, string]> = [
  ["user text a number", JSON.stringify(record(ID, "user", { run_id: "r", text: 42 }))],
  ["user text null", JSON.stringify(record(ID, "user", { run_id: "r", text: null }))],
  ["user text missing", JSON.stringify(record(ID, "user", { run_id: "r" }))],
  [
    "user text a lone surrogate",
    JSON.stringify(record(ID, "user", { run_id: "r", text: "x" })).replace(
      '"text":"x"',
      '"text":"a\\ud800b"',
    ),
  ],
  ["assistant text an object", JSON.stringify(record(ID, "assistant", { text: { a: 1 } }))],
  ["assistant without text or chunks", JSON.stringify(record(ID, "assistant", {}))],
  ["assistant chunks not strings", JSON.stringify(record(ID, "assistant", { chunks: ["a", 1] }))],
  ["compaction summary missing", JSON.stringify(record(ID, "compaction", {}))],
  [
    "provider reasoning summary text missing",
    JSON.stringify(record(ID, "reasoning_summary", { provider_summary: true, item_id: "i" })),
  ],
];

for (const [what, line] of INVALID) {
  Deno.test(`stored records: ${what} makes the session session_invalid`, {
    ignore: !REFERENCE,
  }, async () => {
    await inWorkspace(async (ws) => {
      const dir = `${ws.mcHome}/sessions`;
      await Deno.mkdir(dir, { recursive: true });
      const good = conversation(ID).map((r) => JSON.stringify({ ...r, cwd: ws.cwd }));
      // JSON.stringify writes a lone surrogate as a \ud800 escape.
      const bad = JSON.stringify({ ...JSON.parse(line), cwd: ws.cwd });
      await Deno.writeTextFile(`${dir}/${ID}.jsonl`, [...good, bad].map((l) => `${l}\n`).join(""));
      await withBackend({ workspace: ws }, async (b) => {
        await initializeAll(b);
        const res = await b.request("session.open", { session_id: ID });
        assert.deepEqual(res.error, { code: "session_invalid" }, what);
        assert.equal((await b.call("status")).session_id, null, "nothing attached");
      });
    });
  });
}

Deno.test("stored records: valid text, legacy chunks and hidden reasoning summaries still open", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    const dir = `${ws.mcHome}/sessions`;
    await Deno.mkdir(dir, { recursive: true });
    const records = [
      ...conversation(ID),
      record(ID, "user", { run_id: "r2", message_id: "u2", text: "" }),
      record(ID, "assistant", { run_id: "r2", message_id: "a2", chunks: ["leg", "acy"] }),
      record(ID, "reasoning_summary", { run_id: "r2", item_id: "i", text: 7 }),
      record(ID, "run_finished", { run_id: "r2", outcome: "completed", error_code: null }),
    ];
    const lines = records.map((r) => `${JSON.stringify({ ...r, cwd: ws.cwd })}\n`).join("");
    await Deno.writeTextFile(`${dir}/${ID}.jsonl`, lines);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const opened = await b.call("session.open", { session_id: ID });
      const pages = await allHistory(b, ID, String(opened.revision));
      const entries = pages.flatMap((p) => p.entries as Record<string, unknown>[]);
      const texts = entries.filter((e) => e.kind === "assistant").map((e) => e.text);
      assert.deepEqual(texts, ["Hi there", "legacy"]);
    });
  });
});
