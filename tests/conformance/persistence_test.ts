/**
 * Run persistence: a failed required-input append fails the run with `persistence_failed`
 * and `persistence:"not_started"`; a later append failure reports `degraded` with a null
 * revision, whatever was displayed.
 *
 * The storage failures are made with the reference backend's layout
 * (`$MC_HOME/sessions/<id>.jsonl`, see `docs/reference-backend.md`): a directory where the
 * JSONL file must be appended to. That works when the tests run as root, unlike permission
 * bits.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { withBackend } from "./_harness.ts";
import {
  initialize,
  ofRun,
  runEvents,
  startTurn,
  waitFinished,
  withScenario,
} from "./_fixtures.ts";

Deno.test({
  name: "a failed input append fails the run with persistence_failed, not_started (reference)",
  ignore: !REFERENCE,
  fn: async () => {
    await withBackend({}, async (b) => {
      await initialize(b);
      const sid = String((await b.call("session.create")).session_id);
      await Deno.mkdir(`${b.workspace.mcHome}/sessions/${sid}.jsonl`);
      const run = await startTurn(b, "hello", sid);
      const fin = await waitFinished(b, run);
      assert.deepEqual(
        {
          outcome: fin.data.outcome,
          persistence: fin.data.persistence,
          revision: fin.data.revision,
          error_code: fin.data.error_code,
        },
        {
          outcome: "failed",
          persistence: "not_started",
          revision: null,
          error_code: "persistence_failed",
        },
      );
      assert.deepEqual(
        runEvents(b, run).map((e) => e.event),
        ["run.finished"],
        "no input.persisted and no provider work after a failed input append",
      );
      const status = await b.call("status");
      assert.equal(status.state, "idle");
      assert.equal(status.session_id, sid, "the attachment is kept");
    });
  },
});

Deno.test({
  name:
    "a later append failure reports a completed run as degraded with a null revision (reference)",
  ignore: !REFERENCE,
  fn: async () => {
    await withScenario(
      {
        turns: [{
          steps: [
            { builtin: "shell", approval: true, summary: "Wait for the test" },
            { say: "shown, but not saved" },
          ],
        }],
      },
      async (b) => {
        await initialize(b);
        const run = await startTurn(b, "go");
        const persisted = await b.waitEvent("input.persisted", ofRun(run), { from: run.from });
        assert.equal(persisted.data.durable, true);
        const asked = await b.waitEvent("approval.requested", ofRun(run), { from: run.from });
        // The input is durable; now the session file can no longer be appended to.
        const path = `${b.workspace.mcHome}/sessions/${run.sessionId}.jsonl`;
        await Deno.rename(path, `${path}.moved`);
        await Deno.mkdir(path);
        await b.call("approval.answer", {
          session_id: run.sessionId,
          run_id: run.runId,
          approval_id: asked.data.approval_id,
          allow: false,
        });
        const fin = await waitFinished(b, run);
        assert.equal(fin.data.outcome, "completed", "the reply itself succeeded");
        assert.equal(fin.data.persistence, "degraded");
        assert.equal(fin.data.revision, null, "no revision is claimed for incomplete history");
        assert.equal(fin.data.error_code, null);
        const events = runEvents(b, run);
        const warning = events.find((e) =>
          e.event === "diagnostic" && e.data.code === "persistence_degraded"
        );
        assert.ok(warning !== undefined, "a persistence diagnostic is emitted");
        assert.ok(
          events.some((e) =>
            e.event === "message.reconcile" && e.data.text === "shown, but not saved"
          ),
          "the displayed reply is still reconciled",
        );
      },
    );
  },
});
