/**
 * Owned sessions: lazy create, durability through a turn, exact reopen after restart, and
 * the missing / busy / wrong-workspace / grammar errors.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { type Backend, withBackend, Workspace } from "./_harness.ts";
import { initialize, ofRun, readTool, startTurn, toolPrompt, waitFinished } from "./_fixtures.ts";
import { filesNamed } from "./_files.ts";

const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Create a session, run one turn to make it durable, return its ID. */
async function durableSession(b: Backend): Promise<string> {
  const run = await startTurn(b, "Hello, please reply briefly.");
  await b.waitEvent("input.persisted", ofRun(run), { from: run.from });
  const fin = await waitFinished(b, run);
  assert.equal(fin.data.outcome, "completed");
  return run.sessionId;
}

async function inWorkspace(body: (ws: Workspace) => Promise<void>): Promise<void> {
  const ws = await Workspace.create();
  try {
    await body(ws);
  } finally {
    await ws.dispose();
  }
}

Deno.test("session.create returns a lazy handle: durable false, no file, status attached", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const result = await b.call("session.create");
    assert.deepEqual(Object.keys(result).sort(), ["durable", "notices", "revision", "session_id"]);
    assert.match(String(result.session_id), SESSION_ID);
    assert.equal(result.durable, false);
    assert.equal(typeof result.revision, "string");
    assert.deepEqual(result.notices, []);
    assert.deepEqual(
      await filesNamed(b.workspace.mcHome, String(result.session_id)),
      [],
      "no file",
    );
    assert.equal((await b.call("status")).session_id, result.session_id);
  });
});

Deno.test("session.create params must be exactly {}", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    assert.deepEqual((await b.request("session.create", { title: "x" })).error, {
      code: "invalid_params",
    });
  });
});

Deno.test("session.open reopens the lazy handle in the same child before persistence", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const created = await b.call("session.create");
    const opened = await b.call("session.open", { session_id: created.session_id });
    assert.equal(opened.session_id, created.session_id);
    assert.equal(opened.durable, false);
    assert.ok(Array.isArray(opened.notices));
  });
});

Deno.test("a turn makes the session durable: input.persisted precedes message and activity events", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const run = await startTurn(b, "Hello, please reply briefly.");
    const persisted = await b.waitEvent("input.persisted", ofRun(run), { from: run.from });
    assert.equal(persisted.data.durable, true);
    assert.equal(typeof persisted.data.message_id, "string");
    assert.equal(typeof persisted.data.revision, "string");
    const fin = await waitFinished(b, run);
    const events = b.frames.slice(run.from).filter((f) => f.type === "event" && ofRun(run)(f.data));
    assert.equal(
      events[0]?.type === "event" && events[0].event,
      "input.persisted",
      "first run event",
    );
    assert.equal(fin.data.outcome, "completed");
    assert.equal(fin.data.persistence, "durable");
    assert.equal(typeof fin.data.revision, "string");
    assert.notDeepEqual(await filesNamed(b.workspace.mcHome, run.sessionId), [], "history file");
  });
});

Deno.test("session.open after restart finds the exact durable session", async () => {
  await inWorkspace(async (ws) => {
    let id = "";
    await withBackend({ workspace: ws }, async (b) => {
      await initialize(b);
      id = await durableSession(b);
    });
    await withBackend({ workspace: ws }, async (b) => {
      await initialize(b);
      const opened = await b.call("session.open", { session_id: id });
      assert.deepEqual(Object.keys(opened).sort(), [
        "durable",
        "notices",
        "revision",
        "session_id",
      ]);
      assert.equal(opened.session_id, id);
      assert.equal(opened.durable, true);
      assert.equal((await b.call("status")).session_id, id);
      const run = await startTurn(b, "Continue please.", id);
      await b.waitEvent("input.persisted", ofRun(run), { from: run.from });
      assert.equal((await waitFinished(b, run)).data.persistence, "durable");
    });
  });
});

Deno.test("a lazy session is missing after the child dies before persistence", async () => {
  await inWorkspace(async (ws) => {
    let id = "";
    await withBackend({ workspace: ws }, async (b) => {
      await initialize(b);
      id = String((await b.call("session.create")).session_id);
    });
    await withBackend({ workspace: ws }, async (b) => {
      await initialize(b);
      assert.deepEqual((await b.request("session.open", { session_id: id })).error, {
        code: "session_missing",
      });
    });
  });
});

Deno.test("session.open of an unknown ID is session_missing and keeps the attachment", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const created = await b.call("session.create");
    const res = await b.request("session.open", { session_id: "no-such-session-0001" });
    assert.deepEqual(res.error, { code: "session_missing" });
    assert.equal((await b.call("status")).session_id, created.session_id, "previous attachment");
  });
});

Deno.test("session.open from another cwd is cwd_mismatch", async () => {
  await inWorkspace(async (ws) => {
    let id = "";
    await withBackend({ workspace: ws }, async (b) => {
      await initialize(b);
      id = await durableSession(b);
    });
    const other = await ws.otherCwd("other_project");
    await withBackend({ workspace: ws, cwd: other }, async (b) => {
      await initialize(b);
      assert.deepEqual((await b.request("session.open", { session_id: id })).error, {
        code: "cwd_mismatch",
      });
    });
  });
});

Deno.test("a second child opening a session the first child holds gets session_busy", async () => {
  await inWorkspace(async (ws) => {
    await withBackend({ workspace: ws }, async (first) => {
      await initialize(first);
      const id = await durableSession(first);
      await withBackend({ workspace: ws }, async (second) => {
        await initialize(second);
        const res = await second.request("session.open", { session_id: id });
        assert.deepEqual(res.error, { code: "session_busy" });
      });
      assert.equal((await first.call("status")).session_id, id, "the holder keeps it");
    });
  });
});

Deno.test("a session is released when its holder exits", async () => {
  await inWorkspace(async (ws) => {
    let id = "";
    await withBackend({ workspace: ws }, async (first) => {
      await initialize(first);
      id = await durableSession(first);
      await first.call("shutdown");
      await first.expectExit(0);
    });
    await withBackend({ workspace: ws }, async (second) => {
      await initialize(second);
      assert.equal((await second.call("session.open", { session_id: id })).durable, true);
    });
  });
});

Deno.test("session.create and session.open during an active turn are busy", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const run = await startTurn(b, toolPrompt([["lookup", { q: "hold" }]]));
    const call = await b.waitEvent("client.tool.call", ofRun(run), { from: run.from });
    assert.deepEqual((await b.request("session.create")).error, { code: "busy" });
    assert.deepEqual((await b.request("session.open", { session_id: run.sessionId })).error, {
      code: "busy",
    });
    await b.call("client.tool.result", {
      session_id: run.sessionId,
      run_id: run.runId,
      call_id: call.data.call_id,
      part: 0,
      last_part: true,
      outcome: "success",
      text: "ok",
    });
    await waitFinished(b, run);
    assert.equal((await b.call("status")).session_id, run.sessionId, "attachment unchanged");
  });
});

Deno.test("session IDs outside the grammar are invalid_params", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    for (const sid of ["", "a/b", "../x", "a.b", "s".repeat(65), "sp ace", 12, null]) {
      const res = await b.request("session.open", { session_id: sid });
      assert.deepEqual(res.error, { code: "invalid_params" }, JSON.stringify(sid));
    }
    for (const params of [{}, { session_id: "abc", extra: 1 }]) {
      const res = await b.request("session.open", params);
      assert.deepEqual(res.error, { code: "invalid_params" }, JSON.stringify(params));
    }
  });
});

/** The reference backend's history file of `id` (`<id>.jsonl` under MC_HOME). */
async function historyFile(ws: Workspace, id: string): Promise<string> {
  const files = (await filesNamed(ws.mcHome, id)).filter((f) => f.endsWith(`/${id}.jsonl`));
  assert.equal(files.length, 1, `one history file for ${id}: ${files.join(", ")}`);
  return files[0]!;
}

Deno.test({
  name:
    "an empty existing history file opens durable; a deleted one is missing (reference storage)",
  ignore: !REFERENCE,
  fn: async () => {
    await inWorkspace(async (ws) => {
      let id = "";
      await withBackend({ workspace: ws }, async (b) => {
        await initialize(b);
        id = await durableSession(b);
      });
      const file = await historyFile(ws, id);
      await Deno.writeTextFile(file, "");
      await withBackend({ workspace: ws }, async (b) => {
        await initialize(b);
        assert.equal((await b.call("session.open", { session_id: id })).durable, true);
      });
      await Deno.remove(file);
      await withBackend({ workspace: ws }, async (b) => {
        await initialize(b);
        assert.deepEqual((await b.request("session.open", { session_id: id })).error, {
          code: "session_missing",
        });
      });
    });
  },
});

Deno.test({
  name: "a malformed history file is session_invalid (reference storage)",
  ignore: !REFERENCE,
  fn: async () => {
    await inWorkspace(async (ws) => {
      let id = "";
      await withBackend({ workspace: ws }, async (b) => {
        await initialize(b);
        id = await durableSession(b);
      });
      await Deno.writeTextFile(await historyFile(ws, id), "{not json\n");
      await withBackend({ workspace: ws }, async (b) => {
        await initialize(b);
        assert.deepEqual((await b.request("session.open", { session_id: id })).error, {
          code: "session_invalid",
        });
      });
    });
  },
});

Deno.test({
  name:
    "shutdown during a slow session.open answers it operation_cancelled and keeps the attachment unchanged (reference)",
  ignore: !REFERENCE,
  fn: async () => {
    await inWorkspace(async (ws) => {
      let sid = "";
      await withBackend({ workspace: ws }, async (b) => {
        await initialize(b);
        sid = await durableSession(b);
      });
      await withBackend({ workspace: ws, env: { MAGI_OPERATION_DELAY_MS: "5000" } }, async (b) => {
        await initialize(b);
        const from = b.frames.length;
        const open = await b.sendRequest("session.open", { session_id: sid });
        assert.deepEqual((await b.request("session.create")).error, { code: "busy" });
        assert.equal((await b.call("status")).session_id, null, "not attached while pending");
        assert.deepEqual(await b.call("shutdown"), { state: "stopping" });
        assert.deepEqual((await b.waitResponse(open, 2_000, from)).error, {
          code: "operation_cancelled",
        });
        await b.expectExit(0);
      });
      const leases = await filesNamed(`${ws.mcHome}/sessions`, ".lock");
      assert.deepEqual(leases, [], "a cancelled open leaves no writer lease behind");
    });
  },
});
