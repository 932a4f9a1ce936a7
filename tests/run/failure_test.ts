import assert from "node:assert/strict";
import { HostError, UsageError } from "../../src/errors/mod.ts";
import {
  BackendExited,
  ClientClosed,
  ProtocolViolation,
  RequestBudgetExhausted,
} from "../../src/client/errors.ts";
import { ProtocolError } from "../../src/protocol/errors.ts";
import { classify, hostErrorRecord, isEngineFailure } from "../../src/run/failure.ts";

Deno.test("classify() and hostErrorRecord(): code, message and exit code of each failure", () => {
  const cases: [unknown, boolean, string, string, number][] = [
    [
      new ProtocolViolation("seq gap"),
      true,
      "protocol_violation",
      "Protocol violation: seq gap",
      4,
    ],
    [new BackendExited(1), false, "backend_exited", "Backend exited: code 1", 3],
    [
      new BackendExited(null, "SIGKILL"),
      true,
      "backend_exited",
      "Backend exited: signal SIGKILL",
      4,
    ],
    [new ClientClosed("Client closed"), true, "client_closed", "Client closed", 4],
    [
      new RequestBudgetExhausted("status", 2),
      true,
      "request_budget_exhausted",
      "Request ID budget exhausted: status not sent, 2 request IDs left for turn.cancel, status and shutdown",
      1,
    ],
    [new ProtocolError("busy"), true, "request_failed", "Request failed: busy", 1],
    [
      new HostError("startup_failed", "Backend not ready: x"),
      false,
      "startup_failed",
      "Backend not ready: x",
      3,
    ],
    [
      new HostError("descriptor_mismatch", "No descriptor"),
      true,
      "descriptor_mismatch",
      "No descriptor",
      4,
    ],
    [
      new HostError("backend_stalled", "Backend stalled"),
      true,
      "backend_stalled",
      "Backend stalled",
      4,
    ],
    [new Error("boom"), true, "client_closed", "Host failed: boom", 4],
    ["text", false, "client_closed", "Host failed: text", 4],
    // A host error without a host.error code is not a record code of its own.
    [
      new UsageError("Option --x is unknown"),
      true,
      "client_closed",
      "Host failed: Option --x is unknown",
      4,
    ],
  ];
  for (const [error, started, code, message, exit] of cases) {
    assert.deepEqual(hostErrorRecord(classify(error), started), {
      type: "host.error",
      code,
      message,
      exit_code: exit,
    }, String(error));
  }
});

Deno.test("isEngineFailure() is true only for the engine's own host errors", () => {
  assert.ok(isEngineFailure(new HostError("startup_failed", "x")));
  assert.equal(isEngineFailure(new HostError("usage", "x")), false);
  assert.equal(isEngineFailure(new BackendExited(1)), false);
  assert.equal(isEngineFailure(new ProtocolViolation("x")), false);
  assert.equal(isEngineFailure(new ProtocolError("busy")), false);
  assert.equal(isEngineFailure(new Error("x")), false);
});
