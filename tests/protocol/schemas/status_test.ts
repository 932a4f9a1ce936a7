import {
  ShutdownResultSchema,
  StatusParamsSchema,
  StatusSchema,
} from "../../../src/protocol/schemas/status.ts";
import { assertAccepts, assertRejects, specExample, without } from "./_assert.ts";

// local-agent-protocol.md: the selection object example.
const SELECTION = specExample(
  `{"revision":"<opaque-selection-revision>","provider":"<provider>","model":"<model>","requested_effort":"high","effective_effort":"high","effort_support":"supported","permitted_efforts":["default","low","medium","high"]}`,
);
const DIGEST = "3f".repeat(32);
// local-agent-protocol.md `status` success shape, placeholders filled in.
const IDLE = {
  state: "idle",
  readiness: "ready",
  provider: "effective-provider",
  model: "effective-model",
  context_id: DIGEST,
  session_id: null,
  run_id: null,
  selection: SELECTION,
};
const STARTING = {
  state: "starting",
  readiness: "initializing",
  provider: null,
  model: null,
  context_id: null,
  session_id: null,
  run_id: null,
  selection: null,
};

Deno.test("StatusSchema accepts pending, ready, running and failed statuses", () => {
  assertAccepts(StatusSchema, [
    ["starting", STARTING],
    ["idle", IDLE],
    ["running", { ...IDLE, state: "running", session_id: "saved-id", run_id: "run-1" }],
    ["redacted provider/model", { ...IDLE, provider: null, model: null }],
    ["selection omitted (optional field)", without(IDLE, "selection")],
    ["failed", {
      ...STARTING,
      state: "failed",
      readiness: "configuration_invalid",
      context_id: DIGEST,
    }],
    ["failed with provider", {
      ...IDLE,
      state: "failed",
      readiness: "mcp_unavailable",
      selection: null,
    }],
    ["selection with nulls", {
      ...IDLE,
      selection: { ...SELECTION, provider: null, model: null, effective_effort: null },
    }],
  ]);
});

Deno.test("StatusSchema rejects inconsistent or malformed statuses", () => {
  assertRejects(StatusSchema, [
    ["unknown field", { ...IDLE, extra: 1 }],
    ["missing run_id", without(IDLE, "run_id")],
    ["unknown state", { ...IDLE, state: "stopped" }],
    ["state wrong case", { ...IDLE, state: "Idle" }],
    ["idle but initializing", { ...IDLE, readiness: "initializing" }],
    ["starting but ready", { ...STARTING, readiness: "ready" }],
    ["starting with provider", { ...STARTING, provider: "p" }],
    ["starting with selection", { ...STARTING, selection: SELECTION }],
    ["failed with ready", { ...STARTING, state: "failed", readiness: "ready" }],
    ["failed with non-startup code", { ...STARTING, state: "failed", readiness: "busy" }],
    ["failed with selection", {
      ...IDLE,
      state: "failed",
      readiness: "startup_failed",
      selection: SELECTION,
    }],
    ["idle without context", { ...IDLE, context_id: null }],
    ["uppercase context", { ...IDLE, context_id: "3F".repeat(32) }],
    ["short context", { ...IDLE, context_id: "ab" }],
    ["provider of 257 bytes", { ...IDLE, provider: "p".repeat(257) }],
    ["provider with control", { ...IDLE, provider: "p\u001b[0m" }],
    ["bad session ID", { ...IDLE, session_id: "a.b" }],
    ["selection unknown effort", {
      ...IDLE,
      selection: { ...SELECTION, requested_effort: "HIGH" },
    }],
    ["selection extra", { ...IDLE, selection: { ...SELECTION, scope: "session" } }],
    ["selection missing revision", { ...IDLE, selection: without(SELECTION, "revision") }],
    ["selection bad support", { ...IDLE, selection: { ...SELECTION, effort_support: "yes" } }],
  ]);
});

Deno.test("status params are exactly {} and shutdown result exactly { state: stopping }", () => {
  assertAccepts(StatusParamsSchema, [["empty", {}]]);
  assertRejects(StatusParamsSchema, [["extra", { verbose: true }], ["null", null]]);
  assertAccepts(ShutdownResultSchema, [["stopping", { state: "stopping" }]]);
  assertRejects(ShutdownResultSchema, [
    ["stopped", { state: "stopped" }],
    ["extra", { state: "stopping", at: 1 }],
  ]);
});
