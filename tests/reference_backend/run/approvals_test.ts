import assert from "node:assert/strict";
import { ApprovalBook, approvalExpiryFrom } from "../../../src/reference_backend/run/approvals.ts";

const EXPIRY_CASES: ReadonlyArray<readonly [string | undefined, number]> = [
  [undefined, 60_000],
  ["", 60_000],
  ["300", 300],
  ["50", 50],
  ["49", 50],
  ["0", 50],
  ["60000", 60_000],
  ["60001", 60_000],
  ["999999999", 60_000],
  ["-5", 60_000],
  ["1.5", 60_000],
  ["1e3", 60_000],
  [" 300", 60_000],
  ["abc", 60_000],
];

for (const [raw, want] of EXPIRY_CASES) {
  Deno.test(`approvalExpiryFrom(${JSON.stringify(raw)}) is ${want}`, () => {
    assert.equal(approvalExpiryFrom(raw), want);
  });
}

Deno.test("ApprovalBook denies an unanswered approval on expiry; a late answer is not recorded", async () => {
  const book = new ApprovalBook({ expiryMs: 50 });
  assert.equal(book.expiryMs, 50);
  const scope = { sessionId: "s", runId: "r" };
  const ticket = book.request(scope);
  const left = ticket.remainingMs();
  assert.ok(left >= 0 && left <= 50, `remaining ${left}`);
  assert.equal(await ticket.decision, false);
  assert.equal(ticket.remainingMs(), 0);
  assert.equal(book.answer({ ...scope, approvalId: ticket.approvalId }, true), false);
});

Deno.test("ApprovalBook records exactly one winning answer for the approval's own run", async () => {
  const book = new ApprovalBook();
  const ticket = book.request({ sessionId: "s", runId: "r" });
  assert.equal(
    book.answer({ sessionId: "s", runId: "other", approvalId: ticket.approvalId }, true),
    false,
  );
  assert.equal(
    book.answer({ sessionId: "s", runId: "r", approvalId: ticket.approvalId }, true),
    true,
  );
  assert.equal(
    book.answer({ sessionId: "s", runId: "r", approvalId: ticket.approvalId }, false),
    false,
  );
  assert.equal(await ticket.decision, true);
});
