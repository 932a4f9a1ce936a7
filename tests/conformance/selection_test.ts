/**
 * `status.selection` and `selection.set`: effort request objects, both revision checks,
 * the `session_preferences` append and its durability, `persistence_failed`, and exact
 * reopen restoring the saved selection (`saved_selection_unavailable` when it no longer
 * applies).
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { type Backend, withBackend, type Workspace } from "./_harness.ts";
import { startTurn, waitFinished } from "./_fixtures.ts";
import {
  allHistory,
  initializeAll,
  inWorkspace,
  writeCatalog,
  writeCatalogSettings,
} from "./_stored.ts";

const opts = { ignore: !REFERENCE };
const NO_KEYS = { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "" };

async function caches(ws: Workspace): Promise<void> {
  await writeCatalog(ws, "scripted", [
    { id: "scripted-1", efforts: [] },
    { id: "scripted-2", efforts: ["low", "medium", "high"] },
    { id: "scripted-3", efforts: ["low"] },
    { id: "scripted-hidden" },
  ]);
  await writeCatalog(ws, "openai", [{ id: "gpt-a", efforts: ["high"] }]);
  await writeCatalogSettings(ws, [
    "scripted/scripted-1",
    "scripted/scripted-2",
    "scripted/scripted-3",
    "openai/gpt-a",
  ]);
}

async function withSelection(body: (b: Backend, ws: Workspace) => Promise<void>): Promise<void> {
  await inWorkspace(async (ws) => {
    await caches(ws);
    await withBackend({ workspace: ws, env: NO_KEYS }, async (b) => {
      await initializeAll(b);
      await body(b, ws);
    });
  });
}

/** Params for selecting `model` on the attached session with fresh revisions. */
async function selectParams(
  b: Backend,
  sessionId: string,
  model: string,
  effort?: unknown,
): Promise<Record<string, unknown>> {
  const catalog = await b.call("model.catalog");
  const status = await b.call("status");
  const selection = status.selection as Record<string, unknown>;
  const params: Record<string, unknown> = {
    session_id: sessionId,
    selection_revision: selection.revision,
    catalog_revision: catalog.revision,
    provider: "scripted",
    model,
  };
  if (effort !== undefined) params.effort = effort;
  return params;
}

Deno.test("status.selection of the scripted provider has no effort control", async () => {
  await withBackend({}, async (b) => {
    await initializeAll(b);
    const before = (await b.call("status")).selection as Record<string, unknown>;
    assert.equal(before.provider, "scripted");
    assert.equal(before.requested_effort, "default");
    assert.equal(before.effective_effort, null);
    assert.equal(before.effort_support, "unsupported");
    assert.deepEqual(before.permitted_efforts, ["default"]);
    await b.call("session.create");
    const after = (await b.call("status")).selection as Record<string, unknown>;
    assert.notEqual(after.revision, before.revision, "an attachment rotates the revision");
  });
});

Deno.test(
  "selection.set on a lazy handle appends preferences and makes it durable",
  opts,
  async () => {
    await withSelection(async (b, ws) => {
      const created = await b.call("session.create");
      const sid = String(created.session_id);
      const params = await selectParams(b, sid, "scripted-2", { mode: "set", value: "high" });
      const result = await b.call("selection.set", params);
      assert.deepEqual(Object.keys(result).sort(), [
        "catalog_revision",
        "durable",
        "history_revision",
        "notices",
        "scope",
        "selection",
        "session_id",
      ]);
      assert.equal(result.durable, true);
      assert.equal(result.scope, "session");
      assert.equal(result.catalog_revision, params.catalog_revision);
      assert.deepEqual(result.notices, []);
      const selection = result.selection as Record<string, unknown>;
      assert.equal(selection.model, "scripted-2");
      assert.equal(selection.requested_effort, "high");
      assert.equal(selection.effective_effort, "high");
      assert.equal(selection.effort_support, "supported");
      assert.deepEqual((await b.call("status")).selection, selection, "status agrees");
      const stored = await Deno.readTextFile(`${ws.mcHome}/sessions/${sid}.jsonl`);
      assert.equal(stored.trim().split("\n").length, 1);
      assert.equal(JSON.parse(stored).type, "session_preferences");
      const pages = await allHistory(b, sid, String(result.history_revision));
      assert.deepEqual(pages[0]?.entries, [], "preferences are not history entries");
      const run = await startTurn(b, "after selecting", sid);
      assert.equal((await waitFinished(b, run)).data.outcome, "completed");
      // Keep preserves the requested effort; default resets it.
      const keep = await b.call("selection.set", await selectParams(b, sid, "scripted-2"));
      assert.equal((keep.selection as Record<string, unknown>).requested_effort, "high");
      const reset = await b.call(
        "selection.set",
        await selectParams(b, sid, "scripted-2", { mode: "default" }),
      );
      const resetSelection = reset.selection as Record<string, unknown>;
      assert.equal(resetSelection.requested_effort, "default");
      assert.equal(resetSelection.effective_effort, "default");
    });
  },
);

Deno.test(
  "selection.set answers each stale, invalid and unsupported request explicitly",
  opts,
  async () => {
    await withSelection(async (b) => {
      const none = await b.request("selection.set", {
        session_id: "s",
        selection_revision: "x",
        catalog_revision: "y",
        provider: "scripted",
        model: "scripted-2",
      });
      assert.deepEqual(none.error, { code: "session_missing" });
      const sid = String((await b.call("session.create")).session_id);
      await b.call(
        "selection.set",
        await selectParams(b, sid, "scripted-2", {
          mode: "set",
          value: "medium",
        }),
      );
      const good = await selectParams(b, sid, "scripted-2");
      const cases: [Record<string, unknown>, string][] = [
        [{ ...good, session_id: "other" }, "stale_session"],
        [{ ...good, selection_revision: "old-revision" }, "stale_selection"],
        [{ ...good, catalog_revision: "k999-000000000000" }, "stale_catalog"],
        [{ ...good, model: "scripted-hidden" }, "selection_invalid"],
        [{ ...good, model: "no-such-model" }, "selection_invalid"],
        [{ ...good, provider: "openai", model: "gpt-a" }, "provider_unavailable"],
        [{ ...good, model: "scripted-3" }, "effort_unsupported"],
        [{ ...good, effort: { mode: "set", value: "max" } }, "effort_unsupported"],
        [
          { ...good, model: "scripted-1", effort: { mode: "set", value: "low" } },
          "effort_unsupported",
        ],
        [{ ...good, effort: null }, "invalid_params"],
        [{ ...good, effort: { mode: "set", value: "default" } }, "invalid_params"],
        [{ ...good, effort: { mode: "set" } }, "invalid_params"],
        [{ ...good, effort: { mode: "keep", value: "high" } }, "invalid_params"],
        [{ ...good, effort: { mode: "auto" } }, "invalid_params"],
        [{ ...good, effort: { mode: "set", value: "High" } }, "invalid_params"],
        [{ ...good, scope: "global" }, "invalid_params"],
        [{ ...good, provider: "" }, "invalid_params"],
      ];
      const before = (await b.call("status")).selection;
      for (const [params, code] of cases) {
        const res = await b.request("selection.set", params);
        assert.deepEqual(res.error, { code }, JSON.stringify(params));
      }
      assert.deepEqual((await b.call("status")).selection, before, "nothing changed");
      const applied = await b.call("selection.set", good);
      assert.equal((applied.selection as Record<string, unknown>).requested_effort, "medium");
    });
  },
);

Deno.test("a catalog changed before selection.set is stale_catalog, stickily", opts, async () => {
  await withSelection(async (b, ws) => {
    const sid = String((await b.call("session.create")).session_id);
    const params = await selectParams(b, sid, "scripted-2");
    await writeCatalog(ws, "openai", [{ id: "gpt-a" }, { id: "gpt-b" }]);
    assert.deepEqual((await b.request("selection.set", params)).error, { code: "stale_catalog" });
    await writeCatalog(ws, "openai", [{ id: "gpt-a", efforts: ["high"] }]);
    assert.deepEqual((await b.request("selection.set", params)).error, { code: "stale_catalog" });
  });
});

Deno.test(
  "selection.set that cannot be saved is persistence_failed and changes nothing",
  opts,
  async () => {
    await withSelection(async (b, ws) => {
      const sid = String((await b.call("session.create")).session_id);
      // A directory where the JSONL would be: the append fails.
      await Deno.mkdir(`${ws.mcHome}/sessions/${sid}.jsonl`);
      const before = (await b.call("status")).selection;
      const params = await selectParams(b, sid, "scripted-2");
      assert.deepEqual((await b.request("selection.set", params)).error, {
        code: "persistence_failed",
      });
      assert.deepEqual((await b.call("status")).selection, before);
    });
  },
);

Deno.test("reopening restores the saved selection, or says it is unavailable", opts, async () => {
  await inWorkspace(async (ws) => {
    await caches(ws);
    let sid = "";
    await withBackend({ workspace: ws, env: NO_KEYS }, async (b) => {
      await initializeAll(b);
      sid = String((await b.call("session.create")).session_id);
      await b.call(
        "selection.set",
        await selectParams(b, sid, "scripted-2", {
          mode: "set",
          value: "low",
        }),
      );
    });
    await withBackend({ workspace: ws, env: NO_KEYS }, async (b) => {
      await initializeAll(b);
      const opened = await b.call("session.open", { session_id: sid });
      assert.equal(opened.durable, true);
      assert.deepEqual(opened.notices, []);
      const selection = (await b.call("status")).selection as Record<string, unknown>;
      assert.equal(selection.model, "scripted-2");
      assert.equal(selection.requested_effort, "low");
      assert.equal(selection.effective_effort, "low");
    });
    await writeCatalogSettings(ws, ["scripted/scripted-1"]);
    await withBackend({ workspace: ws, env: NO_KEYS }, async (b) => {
      await initializeAll(b);
      const opened = await b.call("session.open", { session_id: sid });
      assert.deepEqual(opened.notices, ["saved_selection_unavailable"]);
      const selection = (await b.call("status")).selection as Record<string, unknown>;
      assert.equal(selection.model, "scripted-1", "startup selection retained");
      assert.equal(selection.requested_effort, "low", "saved requested effort retained");
      assert.equal(selection.effective_effort, null);
    });
  });
});

Deno.test(
  "reopening with a saved effort the model no longer permits says saved_selection_notice",
  opts,
  async () => {
    await inWorkspace(async (ws) => {
      await caches(ws);
      let sid = "";
      await withBackend({ workspace: ws, env: NO_KEYS }, async (b) => {
        await initializeAll(b);
        sid = String((await b.call("session.create")).session_id);
        const params = await selectParams(b, sid, "scripted-2", { mode: "set", value: "low" });
        await b.call("selection.set", params);
      });
      // The cached model still exists and is enabled, but no longer permits "low".
      await writeCatalog(ws, "scripted", [
        { id: "scripted-1", efforts: [] },
        { id: "scripted-2", efforts: ["high"] },
      ]);
      await withBackend({ workspace: ws, env: NO_KEYS }, async (b) => {
        await initializeAll(b);
        const opened = await b.call("session.open", { session_id: sid });
        assert.deepEqual(opened.notices, ["saved_selection_notice"]);
        const selection = (await b.call("status")).selection as Record<string, unknown>;
        assert.equal(selection.model, "scripted-2", "the saved choice is restored");
        assert.equal(selection.requested_effort, "low", "saved requested effort kept");
        assert.deepEqual(selection.permitted_efforts, ["default", "high"]);
        assert.notEqual(selection.effective_effort, "low", "an unpermitted level is not applied");
      });
    });
  },
);

Deno.test(
  "a changed effort observation fails the next turn with stale_selection",
  opts,
  async () => {
    await withSelection(async (b, ws) => {
      const sid = String((await b.call("session.create")).session_id);
      await b.call("selection.set", await selectParams(b, sid, "scripted-2"));
      const before = (await b.call("status")).selection as Record<string, unknown>;
      await writeCatalog(ws, "scripted", [{ id: "scripted-1", efforts: [] }, { id: "scripted-2" }]);
      const run = await startTurn(b, "hello", sid);
      const fin = await waitFinished(b, run);
      assert.equal(fin.data.outcome, "failed");
      assert.equal(fin.data.error_code, "stale_selection");
      assert.equal(fin.data.persistence, "not_started");
      assert.ok(!b.frames.some((f) => f.type === "event" && f.event === "input.persisted"));
      const after = (await b.call("status")).selection as Record<string, unknown>;
      assert.notEqual(after.revision, before.revision);
      assert.equal(after.effort_support, "unknown");
      const again = await startTurn(b, "hello again", sid);
      assert.equal((await waitFinished(b, again)).data.outcome, "completed");
    });
  },
);
