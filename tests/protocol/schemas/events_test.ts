import {
  ActivityDataSchema,
  ApprovalRequestedDataSchema,
  DiagnosticDataSchema,
  InputPersistedDataSchema,
  MessageDeltaDataSchema,
  MessageReconcileDataSchema,
  RunFinishedDataSchema,
} from "../../../src/protocol/schemas/events.ts";
import type { z } from "zod";
import { assertAccepts, assertRejects, without } from "./_assert.ts";

const RUN = { session_id: "saved-id", run_id: "6f1c2d3e-0000-4000-8000-000000000002" };

// One valid data object per base event, exactly the table's fields plus session/run.
const TABLE: [string, z.ZodType, Record<string, unknown>][] = [
  ["input.persisted", InputPersistedDataSchema, {
    ...RUN,
    message_id: "u1",
    durable: true,
    revision: "rev-1",
  }],
  ["message.delta", MessageDeltaDataSchema, { ...RUN, message_id: "a1", part: 0, text: "Hel" }],
  ["message.reconcile", MessageReconcileDataSchema, {
    ...RUN,
    message_id: "a1",
    part: 0,
    text: "Hello",
    last_part: true,
    partial: false,
  }],
  ["activity", ActivityDataSchema, {
    ...RUN,
    activity_id: "act-1",
    kind: "tool",
    state: "started",
    name: "lookup_ticket",
    summary: "Looking up T-1",
  }],
  ["approval.requested", ApprovalRequestedDataSchema, {
    ...RUN,
    approval_id: "0d8a0000-0000-4000-8000-000000000003",
    summary: "Write file",
    expires_in_ms: 60000,
  }],
  ["diagnostic", DiagnosticDataSchema, { ...RUN, code: "persistence_warning", summary: "x" }],
  ["run.finished", RunFinishedDataSchema, {
    ...RUN,
    outcome: "completed",
    persistence: "durable",
    revision: "rev-2",
    error_code: null,
  }],
];

Deno.test("event data schemas accept the table's fields plus session_id and run_id", () => {
  for (const [name, schema, data] of TABLE) assertAccepts(schema, [[name, data]]);
});

Deno.test("event data schemas reject an unknown field and each missing field", () => {
  for (const [name, schema, data] of TABLE) {
    assertRejects(schema, [
      [`${name} + extra`, { ...data, extra: 1 }],
      ...Object.keys(data).map((key) => [`${name} - ${key}`, without(data, key)] as const),
    ]);
  }
});

Deno.test("message events bound chunks to 4000 UTF-8 bytes and parts to integers ≥ 0", () => {
  const delta = TABLE[1]![2];
  assertAccepts(MessageDeltaDataSchema, [["4000 bytes", {
    ...delta,
    text: "€".repeat(1333) + "a",
  }]]);
  assertRejects(MessageDeltaDataSchema, [
    ["4001 bytes", { ...delta, text: "€".repeat(1333) + "ab" }],
    ["negative part", { ...delta, part: -1 }],
    ["fraction part", { ...delta, part: 1.5 }],
  ]);
});

Deno.test("activity, approval and diagnostic summaries are at most 1024 bytes; enums exact", () => {
  const activity = TABLE[3]![2];
  assertAccepts(ActivityDataSchema, [
    ["1024-byte summary", { ...activity, summary: "é".repeat(512) }],
    ...["subagent", "compaction"].map((kind) => [kind, { ...activity, kind }] as const),
    ...["completed", "failed"].map((state) => [state, { ...activity, state }] as const),
  ]);
  assertRejects(ActivityDataSchema, [
    ["1025-byte summary", { ...activity, summary: "é".repeat(512) + "x" }],
    ["unknown kind", { ...activity, kind: "mcp" }],
    ["unknown state", { ...activity, state: "running" }],
    ["empty activity_id", { ...activity, activity_id: "" }],
  ]);
  assertRejects(ApprovalRequestedDataSchema, [
    ["1025-byte summary", { ...TABLE[4]![2], summary: "s".repeat(1025) }],
  ]);
  assertRejects(DiagnosticDataSchema, [["uppercase code", { ...TABLE[5]![2], code: "Warn" }]]);
});

Deno.test("run.finished outcome, persistence and error_code are exact", () => {
  const finished = TABLE[6]![2];
  assertAccepts(RunFinishedDataSchema, [
    ["failed", {
      ...finished,
      outcome: "failed",
      persistence: "not_started",
      revision: null,
      error_code: "execution_failed",
    }],
    ["cancelled degraded", { ...finished, outcome: "cancelled", persistence: "degraded" }],
  ]);
  assertRejects(RunFinishedDataSchema, [
    ["unknown outcome", { ...finished, outcome: "succeeded" }],
    ["unknown persistence", { ...finished, persistence: "partial" }],
    ["unknown error code", { ...finished, outcome: "failed", error_code: "kaboom" }],
    ["durable true instead of persistence", { ...finished, durable: true }],
  ]);
  assertRejects(InputPersistedDataSchema, [["durable false", { ...TABLE[0]![2], durable: false }]]);
});
