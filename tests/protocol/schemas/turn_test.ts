import {
  ApprovalAnswerParamsSchema,
  ApprovalAnswerResultSchema,
  TurnCancelParamsSchema,
  TurnCancelResultSchema,
  TurnStartParamsSchema,
  TurnStartResultSchema,
} from "../../../src/protocol/schemas/turn.ts";
import { assertAccepts, assertRejects, without } from "./_assert.ts";

const START = { session_id: "saved-id", prompt: "Summarize the open tickets." };

Deno.test("TurnStartParamsSchema bounds the prompt to 1–16384 bytes, not only whitespace", () => {
  assertAccepts(TurnStartParamsSchema, [
    ["prompt", START],
    ["1 byte", { ...START, prompt: "x" }],
    ["16384 bytes", { ...START, prompt: "€".repeat(5461) + "a" }],
    ["16384 bytes ASCII", { ...START, prompt: "a".repeat(16384) }],
    ["surrounding whitespace", { ...START, prompt: "  hi\n" }],
  ]);
  assertRejects(TurnStartParamsSchema, [
    ["empty", { ...START, prompt: "" }],
    ["spaces only", { ...START, prompt: "   " }],
    ["mixed whitespace only", { ...START, prompt: " \t\r\n\u00a0\u2003\u3000" }],
    ["16385 bytes", { ...START, prompt: "€".repeat(5461) + "ab" }],
    ["16385 bytes ASCII", { ...START, prompt: "a".repeat(16385) }],
    ["missing prompt", without(START, "prompt")],
    ["missing session_id", without(START, "session_id")],
    ["unknown field", { ...START, tools: [] }],
  ]);
});

Deno.test("turn.start/turn.cancel/approval.answer results are exact", () => {
  assertAccepts(TurnStartResultSchema, [["accepted", {
    run_id: "6f1c2d3e-0000-4000-8000-000000000002",
    accepted: true,
  }]]);
  assertRejects(TurnStartResultSchema, [
    ["accepted false", { run_id: "r", accepted: false }],
    ["missing run_id", { accepted: true }],
  ]);
  assertAccepts(TurnCancelResultSchema, [["requested", { cancellation_requested: true }]]);
  assertRejects(TurnCancelResultSchema, [["false", { cancellation_requested: false }]]);
  assertAccepts(ApprovalAnswerResultSchema, [["recorded", { recorded: true }]]);
  assertRejects(ApprovalAnswerResultSchema, [["extra", { recorded: true, allow: true }]]);
});

Deno.test("turn.cancel and approval.answer params are exact", () => {
  const cancel = { session_id: "s", run_id: "r" };
  assertAccepts(TurnCancelParamsSchema, [["cancel", cancel]]);
  assertRejects(TurnCancelParamsSchema, [["missing run_id", without(cancel, "run_id")], ["extra", {
    ...cancel,
    reason: "x",
  }]]);
  const answer = { session_id: "s", run_id: "r", approval_id: "a", allow: false };
  assertAccepts(ApprovalAnswerParamsSchema, [["deny", answer], ["allow", {
    ...answer,
    allow: true,
  }]]);
  assertRejects(ApprovalAnswerParamsSchema, [
    ["allow string", { ...answer, allow: "yes" }],
    ["missing approval_id", without(answer, "approval_id")],
    ["extra", { ...answer, remember: true }],
  ]);
});
