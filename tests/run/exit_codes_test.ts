import assert from "node:assert/strict";
import { LOCAL_ERROR_CODES, RECORD_ERROR_CODES } from "../../src/errors/mod.ts";
import { EXIT, type ExitCause, exitCode } from "../../src/run/exit_codes.ts";

/** Every cause and its exit code (docs/cli.md, "Exit codes"): the table the one map must match. */
const TABLE: Record<ExitCause, number> = {
  ok: 0,
  run_failed: 1,
  request_failed: 1,
  request_budget_exhausted: 1,
  usage: 2,
  config: 2,
  source_start: 2,
  sign_in_required: 2,
  feature_unavailable: 2,
  tool_load: 2,
  registry: 2,
  kernel_required: 2,
  batch_input: 2,
  report_input: 2,
  backend_unavailable: 3,
  startup_failed: 3,
  backend_exited: 3, // before the backend was ready; 4 after (below)
  protocol_violation: 4,
  backend_stalled: 4,
  descriptor_mismatch: 4,
  client_closed: 4,
  interrupted: 130,
};

Deno.test("exitCode() maps every cause to its exit code", () => {
  for (const [cause, code] of Object.entries(TABLE) as [ExitCause, number][]) {
    assert.equal(exitCode(cause), code, cause);
    assert.equal(exitCode(cause, { started: false }), code, cause);
  }
});

Deno.test("exitCode() covers every host error code", () => {
  for (const code of [...RECORD_ERROR_CODES, ...LOCAL_ERROR_CODES]) {
    assert.ok(code in TABLE, `${code} is in the table`);
    assert.ok(Object.values(EXIT).includes(exitCode(code)), code);
  }
  assert.equal(
    Object.keys(TABLE).length,
    RECORD_ERROR_CODES.length + LOCAL_ERROR_CODES.length + 2,
  );
});

Deno.test("exitCode() maps backend_exited to 3 before startup and 4 after", () => {
  assert.equal(exitCode("backend_exited", { started: false }), EXIT.startup);
  assert.equal(exitCode("backend_exited", { started: true }), EXIT.protocol);
  for (const cause of Object.keys(TABLE) as ExitCause[]) {
    if (cause === "backend_exited") continue;
    assert.equal(
      exitCode(cause, { started: true }),
      TABLE[cause],
      `${cause} does not depend on it`,
    );
  }
});
