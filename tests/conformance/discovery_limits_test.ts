/**
 * The discovery read bounds (`discovery_session_bytes`, `discovery_session_lines`,
 * `discovery_scan_bytes`, `discovery_scan_lines`): `session.list` answers `discovery_limit`
 * with no partial page; `session.discover` has no global ceiling and ends a page with a
 * cursor when its own budget runs out, failing only when one file is over its bound.
 *
 * The `discovery_scan_ms` deadline is not reachable from here: `MAGI_OPERATION_DELAY_MS`
 * delays an operation before its scan starts. `tests/reference_backend/sessions/discovery_test.ts`
 * covers it with a fake clock.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { type Backend, withBackend, type Workspace } from "./_harness.ts";
import { initializeAll, inWorkspace, record } from "./_stored.ts";

const opts = { ignore: !REFERENCE };

type Listed = { session_id: string };

/** Write many small files in parallel batches. */
async function writeMany(paths: readonly string[], text = ""): Promise<void> {
  for (let i = 0; i < paths.length; i += 256) {
    await Promise.all(paths.slice(i, i + 256).map((p) => Deno.writeTextFile(p, text)));
  }
}

async function sessionsDir(ws: Workspace): Promise<string> {
  const dir = `${ws.mcHome}/sessions`;
  await Deno.mkdir(dir, { recursive: true });
  return dir;
}

/** A session of `lines` small user records. */
async function manyLines(ws: Workspace, id: string, lines: number): Promise<void> {
  const line = JSON.stringify({ ...record(id, "user", { text: "hi" }), cwd: ws.cwd }) + "\n";
  await Deno.writeTextFile(`${await sessionsDir(ws)}/${id}.jsonl`, line.repeat(lines));
}

/** A one-record session of about `bytes` bytes. */
async function manyBytes(ws: Workspace, id: string, bytes: number): Promise<void> {
  const base = { ...record(id, "user", { text: "" }), cwd: ws.cwd };
  const pad = bytes - JSON.stringify(base).length - 1;
  const line = JSON.stringify({ ...base, text: "x".repeat(pad) }) + "\n";
  assert.equal(line.length, bytes);
  await Deno.writeTextFile(`${await sessionsDir(ws)}/${id}.jsonl`, line);
}

/** Follow session.discover to the end; returns every page. */
async function discoverAll(b: Backend, limit: number): Promise<Record<string, unknown>[]> {
  const pages: Record<string, unknown>[] = [];
  let cursor: unknown = null;
  for (let i = 0; i < 1_000; i++) {
    const page = await b.call("session.discover", { cursor, limit });
    pages.push(page);
    cursor = page.next_cursor;
    if (cursor === null) return pages;
  }
  throw new Error("session.discover never ended");
}

function idsOf(pages: Record<string, unknown>[]): string[] {
  return pages.flatMap((p) => (p.sessions as Listed[]).map((s) => s.session_id));
}

async function limited(b: Backend, method: string): Promise<void> {
  const res = await b.request(method, {});
  assert.deepEqual(res.error, { code: "discovery_limit" }, method);
  assert.equal(res.result, undefined, "no partial page");
}

Deno.test(
  "session.discover has no global ceiling: over 4,096 entries and 256 sessions page through",
  opts,
  async () => {
    await inWorkspace(async (ws) => {
      const dir = await sessionsDir(ws);
      const ids = Array.from({ length: 300 }, (_, i) => `s${String(i).padStart(3, "0")}`);
      await writeMany(ids.map((id) => `${dir}/${id}.jsonl`));
      await writeMany(Array.from({ length: 4_100 }, (_, i) => `${dir}/n${i}.note`));
      await writeMany([`${dir}/s150.lock`], "{}");
      await withBackend({ workspace: ws }, async (b) => {
        await initializeAll(b);
        await limited(b, "session.list");
        const pages = await discoverAll(b, 100);
        assert.deepEqual(idsOf(pages), ids, "every session once, ascending");
        assert.equal(pages.length, 3);
        assert.deepEqual(pages.map((p) => p.complete), [false, false, true]);
        const s150 = pages.flatMap((p) => p.sessions as Record<string, unknown>[])[150];
        assert.equal(s150?.eligibility, "busy", "leases are seen without an inventory");
      });
    });
  },
);

Deno.test("a session over 8 MiB (discovery_session_bytes) is discovery_limit", opts, async () => {
  await inWorkspace(async (ws) => {
    await manyLines(ws, "a-small", 1);
    await manyBytes(ws, "b-big", 8_388_609);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      await limited(b, "session.list");
      const first = await b.call("session.discover", { cursor: null, limit: 1 });
      assert.deepEqual(idsOf([first]), ["a-small"]);
      const next = await b.request("session.discover", { cursor: first.next_cursor, limit: 1 });
      assert.deepEqual(next.error, { code: "discovery_limit" }, "one file over its own bound");
      const open = await b.call("session.open", { session_id: "b-big" });
      assert.equal(open.durable, true, "within the 64 MiB stored-history bound");
    });
  });
});

Deno.test(
  "a session over 10,000 lines (discovery_session_lines) is discovery_limit",
  opts,
  async () => {
    await inWorkspace(async (ws) => {
      await manyLines(ws, "long", 10_001);
      await withBackend({ workspace: ws }, async (b) => {
        await initializeAll(b);
        await limited(b, "session.list");
        await limited(b, "session.discover");
      });
    });
  },
);

Deno.test(
  "over 100,000 lines in one scan (discovery_scan_lines): list fails, discover pages on",
  opts,
  async () => {
    await inWorkspace(async (ws) => {
      const ids = Array.from({ length: 11 }, (_, i) => `l${String(i).padStart(2, "0")}`);
      for (const id of ids) await manyLines(ws, id, 9_500);
      await withBackend({ workspace: ws }, async (b) => {
        await initializeAll(b);
        await limited(b, "session.list");
        const pages = await discoverAll(b, 100);
        assert.deepEqual(idsOf(pages), ids);
        assert.equal(pages.length, 2, "the first page stops when its budget runs out");
        assert.equal(pages[0]?.next_cursor, "l09");
      });
    });
  },
);

Deno.test(
  "over 64 MiB in one scan (discovery_scan_bytes): list fails, discover pages on",
  opts,
  async () => {
    await inWorkspace(async (ws) => {
      // Nine files of 7.6 MB, each under the 8 MiB per-file bound: 68.4 MB in all.
      const ids = Array.from({ length: 9 }, (_, i) => `m${i}`);
      for (const id of ids) await manyBytes(ws, id, 7_600_000);
      await withBackend({ workspace: ws }, async (b) => {
        await initializeAll(b);
        await limited(b, "session.list");
        const pages = await discoverAll(b, 100);
        assert.deepEqual(idsOf(pages), ids);
        assert.equal(pages.length, 2, "the first page stops when its budget runs out");
        assert.equal(pages[0]?.next_cursor, "m7");
      });
    });
  },
);
