import assert from "node:assert/strict";
import { ApprovalDecider } from "../../src/run/approvals.ts";
import type { Terminal } from "../../src/runtime/mod.ts";

const REQUEST = {
  session_id: "s",
  run_id: "r",
  approval_id: "a",
  summary: "Write a note",
  expires_in_ms: 60_000,
};

function terminal(answers: (string | null)[]): Terminal & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    ask(question: string) {
      asked.push(question);
      return Promise.resolve(answers.shift() ?? null);
    },
    close() {},
  };
}

Deno.test("ApprovalDecider answers by flag without asking", async () => {
  assert.deepEqual(await new ApprovalDecider("allow", null).decide(REQUEST), {
    decision: "allow",
    decidedBy: "flag",
  });
  assert.deepEqual(await new ApprovalDecider("deny", null).decide(REQUEST), {
    decision: "deny",
    decidedBy: "flag",
  });
});

Deno.test("ApprovalDecider asks on the terminal: only y/yes allows", async () => {
  const tty = terminal(["y", "no", "YES", null]);
  const decider = new ApprovalDecider("ask", tty);
  const decisions = [];
  for (let i = 0; i < 4; i++) decisions.push((await decider.decide(REQUEST)).decision);
  assert.deepEqual(decisions, ["allow", "deny", "allow", "deny"]);
  assert.match(tty.asked[0]!, /Write a note/);
});

Deno.test("ApprovalDecider denies by expiry when nobody answers in time", async () => {
  const never: Terminal = { ask: () => new Promise(() => {}), close() {} };
  const decision = await new ApprovalDecider("ask", never).decide({
    ...REQUEST,
    expires_in_ms: 260,
  });
  assert.deepEqual(decision, { decision: "deny", decidedBy: "expiry" });
});

Deno.test("ApprovalDecider needs a terminal for ask", () => {
  assert.throws(() => new ApprovalDecider("ask", null), TypeError);
});

Deno.test("ApprovalDecider stops asking when the run ends (deny by expiry)", async () => {
  const never: Terminal = { ask: () => new Promise(() => {}), close() {} };
  const ended = new AbortController();
  const pending = new ApprovalDecider("ask", never).decide(REQUEST, ended.signal);
  ended.abort();
  assert.deepEqual(await pending, { decision: "deny", decidedBy: "expiry" });
});
