/**
 * The exit policy of a turn (`src/run/exit_policy.ts`), row by row as docs/cli.md ("Exit
 * codes", `--timeout`, `--last-message`, `--fail-on-tool-error`) and docs/summaries.md
 * (`turn.finished`) describe it. Pure: nothing is spawned.
 */

import assert from "node:assert/strict";
import { EXIT } from "../../src/run/exit_codes.ts";
import { invocationExit, type TurnEnd, turnExit } from "../../src/run/exit_policy.ts";
import { TurnFinishedRecordSchema } from "../../src/summary/records.ts";

const PLAIN: Omit<TurnEnd, "outcome"> = {
  stopCause: null,
  lastMessageUnwritable: false,
  summaryOutputFailed: false,
  toolErrors: null,
};

/** [what, how the turn ended, exit_code, cancelled_by, exit_reason]. */
const ROWS: [string, TurnEnd, number, "signal" | "timeout" | null, string | undefined][] = [
  ["completed", { ...PLAIN, outcome: "completed" }, EXIT.ok, null, undefined],
  [
    "completed although a SIGINT came (the run finished first)",
    { ...PLAIN, outcome: "completed", stopCause: "signal" },
    EXIT.ok,
    null,
    undefined,
  ],
  [
    "cancelled by SIGINT",
    { ...PLAIN, outcome: "cancelled", stopCause: "signal" },
    EXIT.interrupted,
    "signal",
    undefined,
  ],
  [
    "cancelled by --timeout",
    { ...PLAIN, outcome: "cancelled", stopCause: "timeout" },
    EXIT.runFailed,
    "timeout",
    undefined,
  ],
  [
    "cancelled because stdout failed (not a cancelled_by)",
    { ...PLAIN, outcome: "cancelled", stopCause: "output" },
    EXIT.runFailed,
    null,
    undefined,
  ],
  [
    "cancelled because the request-ID budget ran out (not a cancelled_by)",
    { ...PLAIN, outcome: "cancelled", stopCause: "budget" },
    EXIT.runFailed,
    null,
    undefined,
  ],
  [
    "cancelled by the backend itself",
    { ...PLAIN, outcome: "cancelled" },
    EXIT.runFailed,
    null,
    undefined,
  ],
  ["failed", { ...PLAIN, outcome: "failed" }, EXIT.runFailed, null, undefined],
  [
    "failed after --timeout asked to cancel (only a cancelled run has a cancelled_by)",
    { ...PLAIN, outcome: "failed", stopCause: "timeout" },
    EXIT.runFailed,
    null,
    undefined,
  ],
  [
    "completed, --last-message not written",
    { ...PLAIN, outcome: "completed", lastMessageUnwritable: true },
    EXIT.runFailed,
    null,
    "last_message_unwritable",
  ],
  [
    "completed, summaries not written",
    { ...PLAIN, outcome: "completed", summaryOutputFailed: true },
    EXIT.runFailed,
    null,
    "summary_output_failed",
  ],
  [
    "completed, --fail-on-tool-error with 2 tool errors",
    { ...PLAIN, outcome: "completed", toolErrors: 2 },
    EXIT.runFailed,
    null,
    "tool_errors",
  ],
  [
    "completed, --fail-on-tool-error without tool errors",
    { ...PLAIN, outcome: "completed", toolErrors: 0 },
    EXIT.ok,
    null,
    undefined,
  ],
  [
    "completed, all three checks fail: --last-message is named first",
    {
      ...PLAIN,
      outcome: "completed",
      lastMessageUnwritable: true,
      summaryOutputFailed: true,
      toolErrors: 1,
    },
    EXIT.runFailed,
    null,
    "last_message_unwritable",
  ],
  [
    "completed, summaries and tool errors fail: the summaries are named first",
    { ...PLAIN, outcome: "completed", summaryOutputFailed: true, toolErrors: 1 },
    EXIT.runFailed,
    null,
    "summary_output_failed",
  ],
  [
    "cancelled by SIGINT: the checks after the turn change nothing",
    {
      outcome: "cancelled",
      stopCause: "signal",
      lastMessageUnwritable: true,
      summaryOutputFailed: true,
      toolErrors: 4,
    },
    EXIT.interrupted,
    "signal",
    undefined,
  ],
  [
    "failed with tool errors: exit 1 without an exit_reason",
    { ...PLAIN, outcome: "failed", toolErrors: 3 },
    EXIT.runFailed,
    null,
    undefined,
  ],
];

for (const [what, end, code, cancelledBy, reason] of ROWS) {
  Deno.test(`turnExit(): ${what}`, () => {
    const exit = turnExit(end);
    const expected = reason === undefined
      ? { exit_code: code, cancelled_by: cancelledBy }
      : { exit_code: code, cancelled_by: cancelledBy, exit_reason: reason };
    assert.deepEqual(exit, expected);
    // The fields make a valid turn.finished record.
    const record = TurnFinishedRecordSchema.safeParse({
      type: "turn.finished",
      ts: "2026-01-01T00:00:00.000Z",
      v: 1,
      session_id: "s1",
      run_id: "r1",
      outcome: end.outcome,
      persistence: "durable",
      revision: null,
      error_code: null,
      ...exit,
    });
    assert.ok(record.success, JSON.stringify(record.error?.issues));
  });
}

Deno.test("invocationExit(): a run whose summaries were lost never exits 0", () => {
  const rows: [number, boolean, number][] = [
    [EXIT.ok, false, EXIT.ok],
    [EXIT.ok, true, EXIT.runFailed],
    [EXIT.runFailed, true, EXIT.runFailed],
    [EXIT.interrupted, true, EXIT.interrupted],
    [EXIT.protocol, true, EXIT.protocol],
    [EXIT.startup, false, EXIT.startup],
  ];
  for (const [code, lost, expected] of rows) {
    assert.equal(invocationExit(code, lost), expected, `exit ${code}, summaries lost: ${lost}`);
  }
});
