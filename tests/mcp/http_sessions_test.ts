/** The `mcp --http` session table on fake time: idle expiry, idle-first eviction, no room when all are live. */

import assert from "node:assert/strict";
import { HttpSessions } from "../../src/mcp/http_sessions.ts";
import type { HttpSession } from "../../src/mcp/http_sessions.ts";
import { FakeTime } from "../_fake_time.ts";

/** A session whose server only records that it was closed. */
function session(id: string, closed: string[]): HttpSession {
  const server = {
    close: () => {
      closed.push(id);
      return Promise.resolve();
    },
  };
  return { id, server, transport: {} } as unknown as HttpSession;
}

Deno.test("HttpSessions closes a session idle for idleMs, not one with a request open", async () => {
  const time = new FakeTime();
  const closed: string[] = [];
  const expired: string[] = [];
  const table = new HttpSessions({
    max: 4,
    idleMs: 1_000,
    clock: time,
    onExpired: (id) => expired.push(id),
  });
  table.add(session("idle", closed));
  table.add(session("busy", closed));
  const ended = table.enter("busy");
  await time.tick(999);
  assert.deepEqual(closed, []);
  await time.tick(1);
  assert.deepEqual([closed, expired], [["idle"], ["idle"]]);
  await time.tick(10_000);
  assert.deepEqual(closed, ["idle"], "a session with a request open never expires");
  ended();
  await time.tick(1_000);
  assert.deepEqual(closed, ["idle", "busy"], "idle from the end of its last request");
  assert.equal(table.size, 0);
});

Deno.test("HttpSessions makes room by closing the session idle the longest, never a live one", async () => {
  const time = new FakeTime();
  const closed: string[] = [];
  const table = new HttpSessions({ max: 3, idleMs: 0, clock: time });
  for (const id of ["live", "old", "recent"]) table.add(session(id, closed));
  table.enter("live");
  table.enter("old")();
  await time.tick(5);
  table.enter("recent")();
  assert.equal(table.reserve(), true);
  table.opened();
  assert.deepEqual(closed, ["old"]);
  table.add(session("new", closed));
  table.enter("recent");
  table.enter("new");
  // Every session is live: no room, nobody closed.
  assert.equal(table.reserve(), false);
  assert.deepEqual(closed, ["old"]);
  assert.equal(table.size, 3);
  await time.tick(3_600_000);
  assert.deepEqual(closed, ["old"], "idleMs 0: idle sessions do not expire");
});
