/**
 * Forward compatibility and local bounds of the client against the fake backend: unknown
 * additional result fields are ignored, anything else unknown fails closed with a message
 * naming the field, and the request-ID budget keeps a reserve.
 */

import assert from "node:assert/strict";
import { ProtocolViolation, RequestBudgetExhausted } from "../../src/client/errors.ts";
import { REQUEST_ID_RESERVE } from "../../src/client/connection.ts";
import { LIMITS, REQUEST_IDS } from "../../src/protocol/limits.ts";
import { startFake } from "./_fake.ts";

const INIT = {
  required_capabilities: ["client.tools", "session.create", "turn.start", "shutdown"],
  client_tools: [],
};

Deno.test("LocalAgentClient ignores unknown additional fields in results, also nested ones", async () => {
  const fake = startFake("extra_fields");
  try {
    const init = await fake.client.initialize(INIT);
    assert.deepEqual(init.limits, LIMITS, "the unknown limit is dropped");
    assert.equal("future_field" in init, false);
    assert.equal("future_state" in init.status, false);
    assert.deepEqual(Object.keys(init.descriptors ?? {}), ["client.tools"]);
    const status = await fake.client.status();
    assert.equal(status.state, "idle");
    assert.equal("future_field" in status, false);
    const session = await fake.client.sessionCreate();
    assert.equal(session.session_id, "sess1");
    assert.equal(fake.client.failure, null);
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient fails closed on an unknown enum value in a result, naming the field", async () => {
  const fake = startFake("unknown_enum");
  try {
    await fake.client.initialize(INIT);
    await assert.rejects(
      fake.client.status(),
      (e) => e instanceof ProtocolViolation && /Invalid status result: state: /.test(e.message),
    );
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient fails closed on a missing result field, naming it and its code", async () => {
  const fake = startFake("bad_result");
  try {
    await assert.rejects(
      fake.client.initialize(INIT),
      (e) =>
        e instanceof ProtocolViolation &&
        e.message === "Protocol violation: Invalid initialize result: limits: expected object",
    );
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient fails closed on an unknown field in event data, naming it", async () => {
  const fake = startFake("event_extra");
  try {
    await fake.client.initialize(INIT);
    const session = await fake.client.sessionCreate();
    await fake.client.turnStart(session.session_id, "hello").catch(() => {});
    await fake.client.done;
    const failure = fake.client.failure;
    assert.ok(failure instanceof ProtocolViolation, String(failure));
    assert.equal(
      failure.reason,
      "Invalid input.persisted data: (root): unknown field future_field",
    );
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient counts request IDs against the advertised request_ids and keeps a reserve", async () => {
  const budget = 20;
  const fake = startFake("ok", { FAKE_REQUEST_IDS: String(budget) });
  try {
    assert.equal(fake.client.remainingRequestIds, REQUEST_IDS, "4096 before initialize");
    await fake.client.initialize(INIT);
    assert.equal(fake.client.remainingRequestIds, budget - 1);
    while (fake.client.remainingRequestIds > REQUEST_ID_RESERVE) await fake.client.sessionCreate();
    assert.equal(fake.client.remainingRequestIds, REQUEST_ID_RESERVE);
    await assert.rejects(
      fake.client.sessionCreate(),
      (e) =>
        e instanceof RequestBudgetExhausted && e.method === "session.create" &&
        e.remaining === REQUEST_ID_RESERVE,
    );
    assert.equal(fake.client.remainingRequestIds, REQUEST_ID_RESERVE, "nothing was sent");
    assert.equal(fake.client.failure, null, "the connection stays usable");
    for (let i = 0; i < REQUEST_ID_RESERVE - 1; i++) await fake.client.status();
    await assert.rejects(
      fake.client.turnStart("sess1", "hi"),
      RequestBudgetExhausted,
    );
    assert.equal((await fake.client.shutdown()).state, "stopping", "the last ID is shutdown's");
    assert.equal(fake.client.remainingRequestIds, 0);
    await assert.rejects(fake.client.status(), RequestBudgetExhausted);
  } finally {
    await fake.dispose();
  }
});
