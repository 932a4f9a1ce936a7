/**
 * `session.list` and `session.discover`: one snapshot per child in ascending ID order,
 * titles from stored metadata only, the cwd and lease rules, invalid omissions, the
 * discovery bounds, and sticky `stale_revision` on any mutation between pages.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { Backend, withBackend, type Workspace } from "./_harness.ts";
import { startTurn, waitFinished, withScenario, workerIdle } from "./_fixtures.ts";
import { conversation, initializeAll, inWorkspace, record, writeSession } from "./_stored.ts";

const ENTRY_KEYS = ["eligibility", "notices", "session_id", "title", "updated_at"];
const opts = { ignore: !REFERENCE };

type Listed = {
  session_id: string;
  title: string | null;
  updated_at: string | null;
  eligibility: string;
  notices: string[];
};

async function listAll(b: Backend, limit: number): Promise<Record<string, unknown>[]> {
  const pages = [await b.call("session.list", { limit })];
  while (pages.at(-1)?.next_cursor !== null) {
    const last = pages.at(-1) as Record<string, unknown>;
    pages.push(
      await b.call("session.list", { revision: last.revision, cursor: last.next_cursor, limit }),
    );
  }
  return pages;
}

async function threeSessions(ws: Workspace): Promise<void> {
  for (const id of ["s-c", "s-a", "s-b"]) await writeSession(ws, id, conversation(id));
}

Deno.test("session.list lists durable sessions in ascending ID with stored titles only", async () => {
  const scenario = {
    turns: [{ match: "named", steps: [{ title: "Fix the build" }, { say: "ok" }] }],
  };
  await withScenario(scenario, async (b) => {
    await initializeAll(b);
    const empty = await b.call("session.list");
    assert.deepEqual(empty.sessions, []);
    assert.equal(empty.complete, true);
    assert.equal(empty.next_cursor, null);
    const ids: string[] = [];
    for (const prompt of ["named one", "plain two"]) {
      const run = await startTurn(b, prompt);
      await waitFinished(b, run);
      ids.push(run.sessionId);
    }
    await b.call("session.create"); // a lazy handle is not listed
    // session.create is answered before the previous attachment's cleanup ends; until then the
    // worker may answer busy (spec: "releasing previous ownership after cleanup").
    await workerIdle(b);
    const listed = await b.call("session.list", {});
    assert.deepEqual(Object.keys(listed).sort(), [
      "complete",
      "next_cursor",
      "notices",
      "revision",
      "sessions",
    ]);
    const sessions = listed.sessions as Listed[];
    assert.deepEqual(sessions.map((s) => s.session_id), [...ids].sort());
    for (const s of sessions) {
      assert.deepEqual(Object.keys(s).sort(), ENTRY_KEYS);
      assert.equal(s.eligibility, "available");
      assert.deepEqual(s.notices, []);
      assert.match(String(s.updated_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    }
    const byId = new Map(sessions.map((s) => [s.session_id, s]));
    assert.equal(byId.get(ids[0] as string)?.title, "Fix the build");
    assert.equal(byId.get(ids[1] as string)?.title, null, "never derived from the prompt");
    assert.equal(listed.complete, true);
  });
});

Deno.test(
  "session.list applies the cwd rules, omits invalid files and reports leases",
  opts,
  async () => {
    await inWorkspace(async (ws) => {
      const elsewhere = await ws.otherCwd("elsewhere");
      await writeSession(ws, "good", [
        ...conversation("good"),
        record("good", "title", {
          title: "A\u0007 very long title that goes on and on beyond fifty chars",
        }),
      ]);
      await writeSession(ws, "legacy", conversation("legacy"), { cwd: null });
      await writeSession(ws, "other-ws", conversation("other-ws"), { cwd: elsewhere });
      await writeSession(ws, "relative", conversation("relative"), { cwd: "relative/path" });
      await writeSession(ws, "gone-dir", conversation("gone-dir"), { cwd: `${ws.root}/missing` });
      await writeSession(ws, "locked", conversation("locked"));
      await Deno.writeTextFile(`${ws.mcHome}/sessions/locked.lock`, "not even json");
      await Deno.writeTextFile(`${ws.mcHome}/sessions/broken.jsonl`, "{not json\n");
      await Deno.writeTextFile(`${ws.mcHome}/sessions/notes.txt`, "a sidecar");
      await Deno.mkdir(`${ws.mcHome}/sessions/subagents`);
      await writeSession(ws, "empty", []);
      await withBackend({ workspace: ws }, async (b) => {
        await initializeAll(b);
        await b.call("session.open", { session_id: "good" });
        const listed = await b.call("session.list");
        const sessions = listed.sessions as Listed[];
        assert.deepEqual(sessions.map((s) => s.session_id), ["empty", "good", "legacy", "locked"]);
        const [empty, good, legacy, locked] = sessions as [Listed, Listed, Listed, Listed];
        assert.equal(good.eligibility, "available", "this child's attached session");
        assert.equal(good.title?.length, 50, "title bound");
        assert.ok(!/\p{Cc}/u.test(String(good.title)));
        assert.equal(legacy.eligibility, "cwd_unverified");
        assert.deepEqual(legacy.notices, ["cwd_unverified"]);
        assert.equal(empty.updated_at, null);
        assert.equal(empty.eligibility, "cwd_unverified");
        assert.equal(locked.eligibility, "busy", "an unreadable lock is conservatively busy");
        assert.deepEqual(listed.notices, ["sessions_omitted_invalid"]);
        assert.ok(await ws.exists(`${ws.mcHome}/sessions/locked.lock`), "listing never removes");
      });
    });
  },
);

Deno.test("session.list pages by limit and continues with revision and cursor", opts, async () => {
  await inWorkspace(async (ws) => {
    await threeSessions(ws);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const pages = await listAll(b, 1);
      assert.equal(pages.length, 3);
      assert.deepEqual(pages.map((p) => (p.sessions as Listed[])[0]?.session_id), [
        "s-a",
        "s-b",
        "s-c",
      ]);
      assert.deepEqual(pages.map((p) => p.complete), [false, false, true]);
      assert.ok(pages.every((p) => p.revision === pages[0]?.revision));
    });
  });
});

const MUTATIONS: [string, (ws: Workspace) => Promise<void>][] = [
  ["a session file added", (ws) => writeSession(ws, "s-d", conversation("s-d")).then(() => {})],
  ["a session file removed", (ws) => Deno.remove(`${ws.mcHome}/sessions/s-c.jsonl`)],
  ["a session file changed", async (ws) => {
    const path = `${ws.mcHome}/sessions/s-c.jsonl`;
    await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace("Hello", "Jello"));
  }],
  ["a lease appearing", (ws) => Deno.writeTextFile(`${ws.mcHome}/sessions/s-c.lock`, "{}")],
];

Deno.test(
  "session.list: an omitted invalid file edited in place (same size) is stale_revision",
  opts,
  async () => {
    await inWorkspace(async (ws) => {
      await threeSessions(ws);
      const bad = `${ws.mcHome}/sessions/s-bad.jsonl`;
      await Deno.writeTextFile(bad, "nope\n");
      await withBackend({ workspace: ws }, async (b) => {
        await initializeAll(b);
        const first = await b.call("session.list", { limit: 1 });
        assert.deepEqual(first.notices, ["sessions_omitted_invalid"]);
        await Deno.writeTextFile(bad, "nopf\n");
        const next = { revision: first.revision, cursor: first.next_cursor, limit: 1 };
        assert.deepEqual((await b.request("session.list", next)).error, { code: "stale_revision" });
      });
    });
  },
);

for (const [name, mutate] of MUTATIONS) {
  Deno.test(`session.list: ${name} between pages is stale_revision, stickily`, opts, async () => {
    await inWorkspace(async (ws) => {
      await threeSessions(ws);
      await withBackend({ workspace: ws }, async (b) => {
        await initializeAll(b);
        const first = await b.call("session.list", { limit: 1 });
        const next = { revision: first.revision, cursor: first.next_cursor, limit: 1 };
        await mutate(ws);
        assert.deepEqual((await b.request("session.list", next)).error, { code: "stale_revision" });
        assert.deepEqual((await b.request("session.list", next)).error, { code: "stale_revision" });
        const fresh = await b.call("session.list", { limit: 100 });
        assert.notEqual(fresh.revision, first.revision);
        assert.equal(fresh.complete, true);
      });
    });
  });
}

Deno.test("a fresh session.list replaces the previous snapshot", opts, async () => {
  await inWorkspace(async (ws) => {
    await threeSessions(ws);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const first = await b.call("session.list", { limit: 1 });
      const latest = await b.call("session.list", { limit: 1 });
      assert.notEqual(latest.revision, first.revision, "unchanged content, new revision");
      const old = await b.request("session.list", {
        revision: first.revision,
        cursor: first.next_cursor,
        limit: 1,
      });
      assert.deepEqual(old.error, { code: "stale_revision" });
      const crossed = await b.request("session.list", {
        revision: latest.revision,
        cursor: first.next_cursor,
        limit: 1,
      });
      assert.deepEqual(crossed.error, { code: "stale_revision" }, "an old snapshot's cursor");
    });
  });
});

Deno.test("session.list params: unmatched revision/cursor and bad limits are invalid_params", async () => {
  await withBackend({}, async (b) => {
    await initializeAll(b);
    for (
      const params of [
        { revision: "x", cursor: null },
        { revision: null, cursor: "x" },
        { limit: 0 },
        { limit: 101 },
        { limit: 1.5 },
        { extra: true },
      ]
    ) {
      const res = await b.request("session.list", params);
      assert.deepEqual(res.error, { code: "invalid_params" }, JSON.stringify(params));
    }
  });
});

Deno.test(
  "session.list: more than 256 sessions or 4,096 directory entries is discovery_limit",
  opts,
  async () => {
    await inWorkspace(async (ws) => {
      const dir = `${ws.mcHome}/sessions`;
      await Deno.mkdir(dir, { recursive: true });
      for (let i = 0; i < 257; i++) await Deno.writeTextFile(`${dir}/s${i}.jsonl`, "");
      await withBackend({ workspace: ws }, async (b) => {
        await initializeAll(b);
        assert.deepEqual((await b.request("session.list")).error, { code: "discovery_limit" });
        for (let i = 0; i < 4_096; i++) await Deno.writeTextFile(`${dir}/x${i}.note`, "");
        for (let i = 0; i < 250; i++) await Deno.remove(`${dir}/s${i}.jsonl`);
        assert.deepEqual((await b.request("session.list")).error, { code: "discovery_limit" });
        // session.discover has no such ceiling: see discovery_limits_test.ts.
      });
    });
  },
);

Deno.test("an invalid primary filename is discovery_unavailable", opts, async () => {
  await inWorkspace(async (ws) => {
    await threeSessions(ws);
    await Deno.writeTextFile(`${ws.mcHome}/sessions/bad name.jsonl`, "");
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      assert.deepEqual((await b.request("session.list")).error, { code: "discovery_unavailable" });
      assert.equal((await b.call("status")).state, "idle");
    });
  });
});

Deno.test("session.discover pages forward from its cursor, provisionally", opts, async () => {
  await inWorkspace(async (ws) => {
    await threeSessions(ws);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const first = await b.call("session.discover", { cursor: null, limit: 2 });
      assert.deepEqual(Object.keys(first).sort(), [
        "complete",
        "next_cursor",
        "notices",
        "provisional",
        "sessions",
      ]);
      assert.deepEqual((first.sessions as Listed[]).map((s) => s.session_id), ["s-a", "s-b"]);
      assert.equal(first.provisional, true);
      assert.equal(first.complete, false);
      assert.deepEqual(first.notices, []);
      // The inventory may change between pages: no stale_revision, clients de-duplicate.
      await writeSession(ws, "s-d", conversation("s-d"));
      const second = await b.call("session.discover", { cursor: first.next_cursor, limit: 2 });
      assert.deepEqual((second.sessions as Listed[]).map((s) => s.session_id), ["s-c", "s-d"]);
      assert.equal(second.complete, true);
      assert.equal(second.next_cursor, null);
    });
  });
});

Deno.test("children sharing one MC_HOME see each other's leases", opts, async () => {
  await inWorkspace(async (ws) => {
    await threeSessions(ws);
    const a = await Backend.start({ workspace: ws });
    try {
      await withBackend({ workspace: ws }, async (b) => {
        await initializeAll(a);
        await initializeAll(b);
        await a.call("session.open", { session_id: "s-b" });
        const [fromA, fromB] = await Promise.all([a.call("session.list"), b.call("session.list")]);
        const eligibility = (r: Record<string, unknown>) =>
          (r.sessions as Listed[]).map((s) => s.eligibility);
        assert.deepEqual(eligibility(fromA), ["available", "available", "available"]);
        assert.deepEqual(eligibility(fromB), ["available", "busy", "available"]);
        const open = await b.request("session.open", { session_id: "s-b" });
        assert.deepEqual(open.error, { code: "session_busy" });
      });
    } finally {
      await a.close();
    }
  });
});
