/**
 * `runOneTurn`'s hooks (issue 36): `onApproval` with the validated arguments, approval rules,
 * `onRecord` for the live stream, `beforeCall` refusing a call and `afterCall` rewriting a
 * result, and their typed errors.
 */
import assert from "node:assert/strict";
import {
  type ApprovalCall,
  ApprovalRuleError,
  CallRefusedError,
  HookError,
  runOneTurn,
} from "../../mod.ts";
import type { SummaryRecord } from "../../src/summary/records.ts";

const TOOLS = new URL("../e2e/fixtures/policy_tools", import.meta.url).pathname;
const BOTH = 'file_ticket {"text":"a"} and erase_all {"text":"b"}';

async function turn(options: Omit<Parameters<typeof runOneTurn>[0], "prompt">, prompt = BOTH) {
  const home = await Deno.makeTempDir({ prefix: "magi-library-hooks-" });
  try {
    return await runOneTurn({
      prompt,
      toolDirs: [TOOLS],
      agent: "reference",
      env: { MC_HOME: home },
      ...options,
    });
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

function results(records: readonly SummaryRecord[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of records) {
    if (r.type === "tool.result") out[r.name] = r.error_code ?? r.outcome;
  }
  return out;
}

function message(records: readonly SummaryRecord[]): string {
  const last = records.findLast((r) => r.type === "message");
  return last?.type === "message" ? last.text : "";
}

Deno.test("runOneTurn onApproval decides each write call with its validated arguments; onRecord sees the live stream", async () => {
  const asked: ApprovalCall[] = [];
  const live: string[] = [];
  const { exitCode, records } = await turn({
    onApproval: (call) => {
      asked.push(call);
      return call.name === "file_ticket" ? "allow" : "deny";
    },
    onRecord: (record) => live.push(record.type),
  });
  assert.equal(exitCode, 0);
  assert.deepEqual(asked.map((c) => [c.name, c.arguments, c.source]).sort(), [
    ["erase_all", { text: "b" }, "module"],
    ["file_ticket", { text: "a" }, "module"],
  ]);
  assert.deepEqual(results(records), { file_ticket: "success", erase_all: "approval_denied" });
  const decided = records.filter((r) => r.type === "approval" && r.call_id !== undefined);
  assert.deepEqual(decided.map((r) => r.type === "approval" && r.decided_by), ["user", "user"]);
  assert.deepEqual(live, records.map((r) => r.type));
});

Deno.test("runOneTurn approvals rules: allow one tool, deny the rest, the rule on the record", async () => {
  const { records } = await turn({ approvals: ["allow=file_*", "deny"] });
  assert.deepEqual(results(records), { file_ticket: "success", erase_all: "approval_denied" });
  const rules = records.flatMap((r) => r.type === "approval" && r.rule ? [r.rule] : []).sort();
  assert.deepEqual(rules, ["allow=file_*", "deny"]);
  await assert.rejects(() => turn({ approvals: ["maybe=x"] }), ApprovalRuleError);
  await assert.rejects(() => turn({ approvals: ["ask=x"] }), /without onApproval/);
});

Deno.test("runOneTurn beforeCall refuses a call with a reason; afterCall rewrites a result", async () => {
  const { records } = await turn({
    approve: "allow",
    beforeCall: (call) => {
      if (call.name === "erase_all") throw new CallRefusedError("erasing is not allowed here");
    },
    afterCall: (_call, result) => result.text.replaceAll("done", "[redacted]"),
  });
  assert.deepEqual(results(records), { file_ticket: "success", erase_all: "refused" });
  const text = message(records);
  assert.match(text, /file_ticket → file_ticket \[redacted\] a/);
  assert.match(
    text,
    /erase_all → error \(refused\): Call refused: erase_all: erasing is not allowed/,
  );
  const refusedToo = await turn({
    approve: "allow",
    beforeCall: (call) => call.name === "file_ticket" ? { refuse: "no tickets" } : undefined,
  });
  assert.deepEqual(results(refusedToo.records), { file_ticket: "refused", erase_all: "success" });
});

Deno.test("runOneTurn: a failing afterCall answers hook_failed (fail closed); a failing onRecord rejects with HookError", async () => {
  const { records } = await turn({
    approve: "allow",
    afterCall: (call) => {
      if (call.name === "erase_all") throw new Error("redactor down");
    },
  });
  assert.deepEqual(results(records), { file_ticket: "success", erase_all: "hook_failed" });
  assert.doesNotMatch(message(records), /erase_all done/);
  await assert.rejects(
    () =>
      turn({
        onRecord: (record) => {
          if (record.type === "turn.started") throw new Error("sink full");
        },
      }),
    (error: unknown) => error instanceof HookError && error.hook === "onRecord",
  );
});
