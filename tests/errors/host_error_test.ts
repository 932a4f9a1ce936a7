import assert from "node:assert/strict";
import {
  HostError,
  isHostError,
  isHostErrorCode,
  isRecordErrorCode,
  isReported,
  LOCAL_ERROR_CODES,
  RECORD_ERROR_CODES,
  reported,
} from "../../src/errors/mod.ts";
import {
  BackendExited,
  ClientClosed,
  ProtocolViolation,
  RequestBudgetExhausted,
  StaleSnapshot,
} from "../../src/client/errors.ts";
import { RegistryError } from "../../src/toolset/registry.ts";
import { ToolLoadError, UsageError } from "../../src/errors/mod.ts";
import { ProtocolError } from "../../src/protocol/errors.ts";
import { HOST_ERROR_CODES } from "../../src/summary/records.ts";
import * as pub from "../../mod.ts";

Deno.test("HostError carries its code, message, cause and name", () => {
  const cause = new Error("inner");
  const error = new HostError("config", "magi-tools.jsonc: bad key", { cause });
  assert.ok(error instanceof Error);
  assert.equal(error.code, "config");
  assert.equal(error.message, "magi-tools.jsonc: bad key");
  assert.equal(error.name, "HostError");
  assert.equal(error.cause, cause);
});

Deno.test("isHostError() decides on the code, not the class", () => {
  const error: unknown = new HostError("tool_load", "Tool module failed to load: x.ts: boom");
  assert.ok(isHostError(error));
  assert.ok(isHostError(error, "tool_load"));
  assert.ok(isHostError(error, "registry", "tool_load"));
  assert.equal(isHostError(error, "usage"), false);
  assert.equal(isHostError(new Error("x")), false);
  assert.equal(isHostError(new ProtocolError("busy")), false);
  assert.equal(isHostError("usage"), false);
});

Deno.test("the public classes are host errors with a fixed code and their own names", () => {
  const cases: [HostError, string, string][] = [
    [new UsageError("Option --x is unknown"), "usage", "UsageError"],
    [new BackendExited(1), "backend_exited", "BackendExited"],
    [new ClientClosed("Client closed"), "client_closed", "ClientClosed"],
    [new ProtocolViolation("seq gap"), "protocol_violation", "ProtocolViolation"],
    [new RequestBudgetExhausted("status", 3), "request_budget_exhausted", "RequestBudgetExhausted"],
    [new ToolLoadError("tools/x.ts", "boom"), "tool_load", "ToolLoadError"],
    [new RegistryError("Duplicate tool name: x"), "registry", "RegistryError"],
  ];
  for (const [error, code, name] of cases) {
    assert.ok(error instanceof HostError, name);
    assert.equal(error.code, code, name);
    assert.equal(error.name, name);
    assert.ok(isHostError(error, error.code), name);
  }
  // Their own fields and messages are unchanged.
  assert.equal(new BackendExited(1).message, "Backend exited: code 1");
  assert.equal(new ProtocolViolation("seq gap").reason, "seq gap");
  assert.equal(new ToolLoadError("tools/x.ts", "boom").file, "tools/x.ts");
});

Deno.test("wire errors keep the protocol's code and are not host errors", () => {
  const wire = new ProtocolError("busy");
  assert.equal(wire.code, "busy");
  assert.equal(wire instanceof HostError, false);
  const stale = new StaleSnapshot("history", "stale_revision");
  assert.equal(stale.code, "stale_revision");
  assert.equal(stale instanceof HostError, false);
});

Deno.test("the host.error record codes are the summary schema's, and every code is distinct", () => {
  assert.deepEqual([...RECORD_ERROR_CODES], [...HOST_ERROR_CODES]);
  const all = [...RECORD_ERROR_CODES, ...LOCAL_ERROR_CODES];
  assert.equal(new Set(all).size, all.length);
  for (const code of all) assert.ok(isHostErrorCode(code), code);
  for (const code of LOCAL_ERROR_CODES) assert.equal(isRecordErrorCode(code), false, code);
  for (const code of RECORD_ERROR_CODES) assert.ok(isRecordErrorCode(code), code);
  assert.equal(isHostErrorCode("busy"), false);
});

Deno.test("reported() is a value that keeps the code; isReported() tells it from results", () => {
  const value = reported("config");
  assert.deepEqual(value, { reported: true, code: "config" });
  assert.ok(isReported(value));
  for (const other of [null, undefined, 0, "reported", {}, { reported: "yes" }, { ok: false }]) {
    assert.equal(isReported(other), false, JSON.stringify(other));
  }
});

Deno.test("mod.ts exports the error type and the public classes under their names", () => {
  assert.equal(pub.HostError, HostError);
  assert.equal(pub.UsageError, UsageError);
  assert.equal(pub.BackendExited, BackendExited);
  assert.equal(pub.ClientClosed, ClientClosed);
  assert.equal(pub.ProtocolViolation, ProtocolViolation);
  assert.equal(pub.ProtocolError, ProtocolError);
  assert.ok(pub.isHostError(new pub.UsageError("x"), "usage"));
});
