/**
 * "Failed opens leave the previous attachment intact": a `session.open` that
 * `operation.cancel` or shutdown answered `operation_cancelled` never switches the
 * attachment, never keeps the session's writer lease and never makes the old session stale
 * — also while it is reading a history of tens of MB, not only during a start delay.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { type Backend, withBackend, type Workspace } from "./_harness.ts";
import { workerIdle } from "./_fixtures.ts";
import { conversation, initializeAll, inWorkspace, record, writeSession } from "./_stored.ts";

const OLD = "old-session";
const BIG = "big-session";
/** 24,000 records of ~2 KB: about 50 MB of history, under the 64 MiB / 100,000-line bounds. */
const BIG_RECORDS = 24_000;

async function writeBig(ws: Workspace): Promise<number> {
  const text = "y".repeat(2_000);
  const records = Array.from(
    { length: BIG_RECORDS },
    (_, i) =>
      record(BIG, i % 2 === 0 ? "user" : "assistant", {
        run_id: `run-${i >> 1}`,
        message_id: `m-${i}`,
        text,
      }),
  );
  // Every run finished, so the history is valid and complete.
  for (let run = 0; run < BIG_RECORDS / 2; run += 1) {
    records.splice(
      3 * run + 2,
      0,
      record(BIG, "run_finished", {
        run_id: `run-${run}`,
        outcome: "completed",
        error_code: null,
      }),
    );
  }
  const path = await writeSession(ws, BIG, records);
  return (await Deno.stat(path)).size;
}

/** The old session is still the attachment and fully usable. */
async function assertOldAttached(b: Backend, ws: Workspace, revision: string): Promise<void> {
  const status = await b.call("status");
  assert.equal(status.session_id, OLD, "the attachment did not switch");
  const page = await b.request("history.page", { session_id: OLD, revision, cursor: null });
  assert.equal(page.error, undefined, `old session usable: ${JSON.stringify(page.error)}`);
  const other = await b.request("history.page", { session_id: BIG, revision, cursor: null });
  assert.deepEqual(other.error, { code: "stale_session" });
  assert.equal(
    await ws.exists(`${ws.mcHome}/sessions/${BIG}.lock`),
    false,
    "no writer lease on the cancelled session",
  );
}

Deno.test("a session.open cancelled while it reads a large history leaves the attachment intact", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    await writeSession(ws, OLD, conversation(OLD));
    const size = await writeBig(ws);
    assert.ok(size > 40_000_000, `history of ${size} bytes`);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const old = await b.call("session.open", { session_id: OLD });
      const from = b.frames.length;
      const openId = await b.sendRequest("session.open", { session_id: BIG });
      // Cancel while the open reads and validates the file (real work, no start delay): a
      // status round trip proves the backend read the open and started it (frames are handled
      // in order), instead of a 50 ms sleep; the history takes far longer to read.
      await b.call("status");
      const cancel = await b.request("operation.cancel", { operation_id: openId });
      assert.deepEqual(cancel.result, { cancellation_requested: true }, "the open was pending");
      const answered = await b.waitResponse(openId, 30_000, from);
      assert.deepEqual(answered.error, { code: "operation_cancelled" });
      await workerIdle(b);
      await assertOldAttached(b, ws, String(old.revision));
      // And later still (nothing applied after the cancelled work ended).
      await b.settle(300);
      await assertOldAttached(b, ws, String(old.revision));
      // The session itself is fine: opening it without a cancel works.
      const reopened = await b.request("session.open", { session_id: BIG }, { timeoutMs: 60_000 });
      assert.equal(reopened.result?.session_id, BIG, JSON.stringify(reopened.error));
    });
  });
});

Deno.test("a session.open cancelled right away leaves the attachment intact", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    await writeSession(ws, OLD, conversation(OLD));
    await writeBig(ws);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const old = await b.call("session.open", { session_id: OLD });
      const from = b.frames.length;
      const openId = b.freshId();
      // Both frames in one write: the cancel is read before the open's work has started.
      await b.send(
        [
          { id: openId, method: "session.open", params: { session_id: BIG } },
          { id: b.freshId(), method: "operation.cancel", params: { operation_id: openId } },
        ].map((r) => `${JSON.stringify({ protocol: "magi-code.local-agent", version: 1, ...r })}\n`)
          .join(""),
      );
      const answered = await b.waitResponse(openId, 30_000, from);
      assert.deepEqual(answered.error, { code: "operation_cancelled" });
      await workerIdle(b);
      await assertOldAttached(b, ws, String(old.revision));
    });
  });
});

Deno.test("shutdown during a large session.open answers operation_cancelled and leaves no lease", {
  ignore: !REFERENCE,
}, async () => {
  await inWorkspace(async (ws) => {
    await writeSession(ws, OLD, conversation(OLD));
    await writeBig(ws);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      await b.call("session.open", { session_id: OLD });
      const from = b.frames.length;
      const openId = await b.sendRequest("session.open", { session_id: BIG });
      // The open is under way once a later status is answered (frames are handled in order).
      await b.call("status");
      await b.sendRequest("shutdown", {});
      const answered = await b.waitResponse(openId, 30_000, from);
      assert.deepEqual(answered.error, { code: "operation_cancelled" });
      // No frame says the open happened.
      assert.equal(
        b.frames.slice(from).some((f) => f.type === "response" && f.id === openId && f.result),
        false,
      );
      await b.expectExit(0, 30_000);
      assert.equal(await ws.exists(`${ws.mcHome}/sessions/${BIG}.lock`), false);
    });
  });
});
