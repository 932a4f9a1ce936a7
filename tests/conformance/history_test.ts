/**
 * `history.page`: immutable bounded projections, paging, chunking, snapshot bounds, sticky
 * `stale_revision`, and what the projection shows (reconciled assistant text once,
 * provenance-checked reasoning summaries, tool summaries, interrupted turns).
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { byteLength } from "./_frames.ts";
import { type Backend, withBackend } from "./_harness.ts";
import { ofRun, startTurn, waitFinished, withScenario } from "./_fixtures.ts";
import {
  allHistory,
  conversation,
  initializeAll,
  inWorkspace,
  record,
  writeSession,
} from "./_stored.ts";

const ENTRY_KEYS = ["kind", "last_part", "message_id", "part", "partial", "text"];
const PAGE_KEYS = ["complete", "entries", "next_cursor", "revision", "session_id"];

type Entry = {
  message_id: string;
  kind: string;
  text: string;
  partial: boolean;
  part: number;
  last_part: boolean;
};

function entriesOf(pages: Record<string, unknown>[]): Entry[] {
  return pages.flatMap((p) => p.entries as Entry[]);
}

/** Concatenate the parts of each message, checking contiguity. */
function messages(
  entries: Entry[],
): { id: string; kind: string; text: string; partial: boolean }[] {
  const out: { id: string; kind: string; text: string; partial: boolean }[] = [];
  for (const e of entries) {
    const last = out.at(-1);
    if (e.part > 0) {
      assert.ok(last !== undefined && last.id === e.message_id, "parts are contiguous");
      last.text += e.text;
    } else out.push({ id: e.message_id, kind: e.kind, text: e.text, partial: e.partial });
  }
  return out;
}

async function turn(b: Backend, prompt: string, sessionId?: string) {
  const run = await startTurn(b, prompt, sessionId);
  const fin = await waitFinished(b, run);
  return { run, revision: String(fin.data.revision) };
}

Deno.test("history.page projects a finished turn in stored order, complete on the last page", async () => {
  await withBackend({}, async (b) => {
    await initializeAll(b);
    const { run, revision } = await turn(b, "Hello history");
    const page = await b.call("history.page", {
      session_id: run.sessionId,
      revision,
      cursor: null,
    });
    assert.deepEqual(Object.keys(page).sort(), PAGE_KEYS);
    assert.equal(page.session_id, run.sessionId);
    assert.equal(page.revision, revision);
    assert.equal(page.next_cursor, null);
    assert.equal(page.complete, true);
    const entries = page.entries as Entry[];
    for (const e of entries) assert.deepEqual(Object.keys(e).sort(), ENTRY_KEYS);
    const shown = messages(entries);
    assert.deepEqual(shown.map((m) => m.kind), ["user", "assistant"]);
    assert.equal(shown[0]?.text, "Hello history");
    assert.equal(shown[1]?.text, "Scripted reply: Hello history", "one reconciled copy");
    // The cursor may be omitted on the first page.
    const again = await b.call("history.page", { session_id: run.sessionId, revision });
    assert.deepEqual(again.entries, page.entries);
  });
});

Deno.test("history.page of a lazy handle is one empty complete page", async () => {
  await withBackend({}, async (b) => {
    await initializeAll(b);
    const created = await b.call("session.create");
    const page = await b.call("history.page", {
      session_id: created.session_id,
      revision: created.revision,
      cursor: null,
    });
    assert.deepEqual(page.entries, []);
    assert.equal(page.complete, true);
    assert.equal(page.next_cursor, null);
  });
});

Deno.test("history.page answers session_missing, stale_session, stale_revision and invalid_params", async () => {
  await withBackend({}, async (b) => {
    await initializeAll(b);
    const none = await b.request("history.page", {
      session_id: "s1",
      revision: "r1",
      cursor: null,
    });
    assert.deepEqual(none.error, { code: "session_missing" });
    const { run, revision } = await turn(b, "Hello");
    const sid = run.sessionId;
    const wrong = await b.request("history.page", { session_id: "other", revision, cursor: null });
    assert.deepEqual(wrong.error, { code: "stale_session" });
    const ack = await b.waitEvent("input.persisted", ofRun(run));
    const old = await b.request("history.page", {
      session_id: sid,
      revision: ack.data.revision,
      cursor: null,
    });
    assert.deepEqual(old.error, { code: "stale_revision" }, "the input acknowledgement revision");
    const cursor = await b.request("history.page", { session_id: sid, revision, cursor: "h9.1" });
    assert.deepEqual(cursor.error, { code: "stale_revision" }, "a cursor never issued");
    for (
      const params of [
        { session_id: sid, revision },
        { session_id: sid, revision, cursor: null, extra: 1 },
        { session_id: sid, revision: "bad revision", cursor: null },
        { session_id: sid, revision, cursor: 5 },
      ]
    ) {
      if (!("cursor" in params)) continue;
      const res = await b.request("history.page", params);
      assert.deepEqual(res.error, { code: "invalid_params" }, JSON.stringify(params));
    }
  });
});

Deno.test("history.page is busy while a run is active", async () => {
  await withScenario({ turns: [{ steps: [{ sleep: 1500 }, { say: "done" }] }] }, async (b) => {
    await initializeAll(b);
    const first = await turn(b, "one");
    const run = await startTurn(b, "two", first.run.sessionId);
    await b.waitEvent("input.persisted", ofRun(run), { from: run.from });
    const res = await b.request("history.page", {
      session_id: run.sessionId,
      revision: first.revision,
      cursor: null,
    });
    assert.deepEqual(res.error, { code: "busy" });
    const fin = await waitFinished(b, run);
    const pages = await allHistory(b, run.sessionId, String(fin.data.revision));
    assert.equal(messages(entriesOf(pages)).length, 4);
  });
});

Deno.test("long replies are chunked into parts within the chunk and page bounds", async () => {
  // 40,000 bytes of quotes and backslashes: JSON escaping doubles them, so parts shrink.
  const text = `${'ab"\\'.repeat(10_000)}é`;
  await withScenario({ turns: [{ steps: [{ say: text }] }] }, async (b) => {
    await initializeAll(b);
    const { run, revision } = await turn(b, "long please");
    const pages = await allHistory(b, run.sessionId, revision);
    for (const page of pages) {
      assert.ok(byteLength(JSON.stringify(page)) <= 32_768, "page within history_page_bytes");
      assert.ok((page.entries as Entry[]).length <= 100);
    }
    const entries = entriesOf(pages);
    const assistant = entries.filter((e) => e.kind === "assistant");
    assert.ok(assistant.length >= 3, `parts: ${assistant.length}`);
    assistant.forEach((e, i) => {
      assert.equal(e.part, i);
      assert.equal(e.last_part, i === assistant.length - 1);
      assert.ok(byteLength(JSON.stringify(e.text)) - 2 <= 16_384, "escaped part within bound");
    });
    assert.equal(assistant.map((e) => e.text).join(""), text);
    assert.equal(pages.at(-1)?.complete, true);
    assert.ok(pages.slice(0, -1).every((p) => p.complete === false && p.next_cursor !== null));
  });
});

Deno.test("more than 100 entries are paged with cursors and at most 100 entries a page", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    const id = "many-entries";
    const records = Array.from({ length: 90 }, (_, i) => conversation(id, `run-${i}`)).flat();
    await writeSession(ws, id, records);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const opened = await b.call("session.open", { session_id: id });
      const pages = await allHistory(b, id, String(opened.revision));
      assert.ok(pages.length >= 2);
      for (const page of pages) assert.ok((page.entries as Entry[]).length <= 100);
      const shown = messages(entriesOf(pages));
      assert.equal(shown.length, 180);
      assert.deepEqual(shown.slice(0, 2).map((m) => m.kind), ["user", "assistant"]);
      assert.equal(shown[179]?.id, "a-run-89", "stored order kept");
    });
  });
});

Deno.test("a projection over 10,000 parts is history_limit, not a partial page", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    const id = "too-many-parts";
    const records = Array.from(
      { length: 10_001 },
      (_, i) => record(id, "compaction", { summary: `s${i}` }),
    );
    await writeSession(ws, id, records);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const opened = await b.call("session.open", { session_id: id });
      const res = await b.request("history.page", {
        session_id: id,
        revision: opened.revision,
        cursor: null,
      });
      assert.deepEqual(res.error, { code: "history_limit" });
      assert.equal((await b.call("status")).state, "idle", "connection usable");
    });
  });
});

Deno.test("a session changed between pages is stale_revision, stickily, until reopened", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    const id = "mutated";
    const records = Array.from({ length: 60 }, (_, i) => conversation(id, `run-${i}`)).flat();
    const path = await writeSession(ws, id, records);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const opened = await b.call("session.open", { session_id: id });
      const revision = String(opened.revision);
      const first = await b.call("history.page", { session_id: id, revision, cursor: null });
      assert.notEqual(first.next_cursor, null);
      const original = await Deno.readTextFile(path);
      // Same length, different content: only the content fingerprint can tell.
      await Deno.writeTextFile(path, original.replace('"Hello"', '"Jello"'));
      const next = await b.request("history.page", {
        session_id: id,
        revision,
        cursor: first.next_cursor,
      });
      assert.deepEqual(next.error, { code: "stale_revision" });
      await Deno.writeTextFile(path, original);
      for (const cursor of [first.next_cursor, null]) {
        const again = await b.request("history.page", { session_id: id, revision, cursor });
        assert.deepEqual(again.error, { code: "stale_revision" }, "sticky after restoring");
      }
      const reopened = await b.call("session.open", { session_id: id });
      const pages = await allHistory(b, id, String(reopened.revision));
      assert.equal(messages(entriesOf(pages)).length, 120);
    });
  });
});

Deno.test("reasoning summaries need provider_summary provenance; a repeated item replaces", {
  ignore: !REFERENCE,
}, async () => {
  const scenario = {
    turns: [{
      steps: [
        { reasoning: "First thought", item: "r1" },
        { reasoning: "Unverified thought", provider_summary: false },
        { reasoning: "Refined thought", item: "r1" },
        { builtin: "shell", summary: "List files", output: "SECRET-RAW-OUTPUT" },
        { compaction: "Summary of earlier talk" },
        { say: "Done" },
      ],
    }],
  };
  await withScenario(scenario, async (b) => {
    await initializeAll(b);
    const { run, revision } = await turn(b, "think");
    const shown = messages(entriesOf(await allHistory(b, run.sessionId, revision)));
    assert.deepEqual(shown.map((m) => m.kind), [
      "user",
      "reasoning_summary",
      "activity",
      "compaction",
      "assistant",
    ]);
    assert.equal(shown[1]?.text, "Refined thought");
    assert.ok(shown[2]?.text.includes("List files"));
    assert.ok(shown.every((m) => !m.text.includes("SECRET-RAW-OUTPUT")), "no raw tool output");
    assert.ok(shown.every((m) => !m.text.includes("Unverified")));
    assert.ok(shown.every((m) => m.kind !== "tool_card"), "no cards without tool.cards");
  });
});

Deno.test("an interrupted turn keeps a partial diagnostic and an incomplete projection", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    const id = "interrupted";
    await writeSession(ws, id, [
      ...conversation(id, "run-1"),
      record(id, "user", { run_id: "run-2", message_id: "u-2", text: "Second" }),
      record(id, "assistant", { run_id: "run-2", message_id: "a-2", text: "Partial ans" }),
    ]);
    const failed = "failed-run";
    await writeSession(ws, failed, [
      record(failed, "user", { run_id: "r", message_id: "u", text: "Go" }),
      record(failed, "assistant", { run_id: "r", message_id: "a", text: "Half" }),
      record(failed, "run_finished", {
        run_id: "r",
        outcome: "failed",
        error_code: "execution_failed",
      }),
    ]);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const opened = await b.call("session.open", { session_id: id });
      const pages = await allHistory(b, id, String(opened.revision));
      const shown = messages(entriesOf(pages));
      assert.equal(shown.at(-2)?.text, "Partial ans", "partial reply kept");
      assert.equal(shown.at(-1)?.kind, "diagnostic");
      assert.equal(shown.at(-1)?.partial, true);
      assert.equal(pages.at(-1)?.complete, false);
      const other = await b.call("session.open", { session_id: failed });
      const done = await allHistory(b, failed, String(other.revision));
      const kept = messages(entriesOf(done));
      assert.deepEqual(kept.map((m) => m.kind), ["user", "assistant", "diagnostic"]);
      assert.equal(done.at(-1)?.complete, true, "a recorded failed turn can be complete");
    });
  });
});

Deno.test("a same-size edit before the first page is stale_revision, stickily", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    const id = "same-size";
    const path = await writeSession(ws, id, [
      record(id, "user", { run_id: "r", message_id: "u", text: "original" }),
      record(id, "run_finished", { run_id: "r", outcome: "completed", error_code: null }),
    ]);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const opened = await b.call("session.open", { session_id: id });
      const revision = String(opened.revision);
      const original = await Deno.readTextFile(path);
      const replaced = original.replace('"original"', '"REPLACED"');
      assert.equal(replaced.length, original.length);
      await Deno.writeTextFile(path, replaced);
      const page = await b.request("history.page", { session_id: id, revision, cursor: null });
      assert.deepEqual(page.error, { code: "stale_revision" }, "the revision denotes the old text");
      await Deno.writeTextFile(path, original);
      const again = await b.request("history.page", { session_id: id, revision, cursor: null });
      assert.deepEqual(again.error, { code: "stale_revision" }, "sticky after restoring");
      await Deno.writeTextFile(path, replaced);
      const reopened = await b.call("session.open", { session_id: id });
      const shown = messages(entriesOf(await allHistory(b, id, String(reopened.revision))));
      assert.equal(shown[0]?.text, "REPLACED", "a reopen projects the current content");
    });
  });
});

Deno.test("a reopen gives a new revision; the old revision and cursors are stale on it", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    const id = "reopened";
    const records = Array.from({ length: 60 }, (_, i) => conversation(id, `run-${i}`)).flat();
    await writeSession(ws, id, records);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const first = await b.call("session.open", { session_id: id });
      const old = String(first.revision);
      const page = await b.call("history.page", { session_id: id, revision: old, cursor: null });
      assert.notEqual(page.next_cursor, null);
      const second = await b.call("session.open", { session_id: id });
      const revision = String(second.revision);
      assert.notEqual(revision, old, "same unchanged file, new attachment, new revision");
      const stale = await b.request("history.page", {
        session_id: id,
        revision: old,
        cursor: null,
      });
      assert.deepEqual(stale.error, { code: "stale_revision" });
      const fresh = await b.call("history.page", { session_id: id, revision, cursor: null });
      assert.equal(fresh.next_cursor === page.next_cursor, false, "cursors are per attachment");
      const crossed = await b.request("history.page", {
        session_id: id,
        revision,
        cursor: page.next_cursor,
      });
      assert.deepEqual(crossed.error, { code: "stale_revision" }, "old cursor, new attachment");
      const created = await b.call("session.create");
      const lazy = await b.call("session.open", { session_id: created.session_id });
      assert.notEqual(lazy.revision, created.revision, "a lazy handle reopened too");
    });
  });
});

Deno.test("a projection over 8 MiB of serialized entries is history_limit", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    const id = "too-many-bytes";
    // 560 single-part entries of 16,000 bytes: ~8.97 MB serialized, far under 10,000 parts.
    const summary = "x".repeat(16_000);
    const records = Array.from({ length: 560 }, () => record(id, "compaction", { summary }));
    await writeSession(ws, id, records);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const opened = await b.call("session.open", { session_id: id });
      const res = await b.request("history.page", {
        session_id: id,
        revision: opened.revision,
        cursor: null,
      });
      assert.deepEqual(res.error, { code: "history_limit" });
      assert.equal((await b.call("status")).state, "idle", "connection usable");
    });
  });
});
