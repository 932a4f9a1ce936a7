import assert from "node:assert/strict";
import { BackendExited, ProtocolViolation } from "../../src/client/errors.ts";
import type { AgentEvent } from "../../src/client/events.ts";
import { ProtocolError } from "../../src/protocol/errors.ts";
import { BASE_CAPABILITIES } from "../../src/protocol/schemas/capabilities.ts";
import { LocalAgentClient } from "../../src/client/client.ts";
import { reapChild } from "../../src/runtime/mod.ts";
import { fakeChild } from "../_kit/mod.ts";
import { type FakeConnection, startFake } from "./_fake.ts";

const INIT = {
  required_capabilities: ["client.tools", "session.create", "turn.start", "shutdown"],
  client_tools: [],
};

async function startTurn(fake: FakeConnection): Promise<void> {
  await fake.client.initialize(INIT);
  const session = await fake.client.sessionCreate();
  await fake.client.turnStart(session.session_id, "hello");
}

async function collect(fake: FakeConnection): Promise<AgentEvent[]> {
  const seen: AgentEvent[] = [];
  for await (const event of fake.client.events()) {
    seen.push(event);
    if (event.event === "run.finished") break;
  }
  return seen;
}

Deno.test("LocalAgentClient runs a turn and validates every frame", async () => {
  const fake = startFake("ok");
  try {
    const init = await fake.client.initialize(INIT);
    assert.deepEqual(init.capabilities, [...BASE_CAPABILITIES, "client.tools"]);
    assert.match(fake.client.instanceId ?? "", /^[0-9a-f-]{36}$/);
    const session = await fake.client.sessionCreate();
    const run = await fake.client.turnStart(session.session_id, "hello");
    assert.equal(run.accepted, true);
    const events = await collect(fake);
    assert.deepEqual(events.map((e) => e.event), [
      "input.persisted",
      "message.reconcile",
      "run.finished",
    ]);
    assert.deepEqual(events.map((e) => e.seq), [4, 5, 6]);
    assert.equal((await fake.client.shutdown()).state, "stopping");
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient maps an error response to ProtocolError(code)", async () => {
  const fake = startFake("ok");
  try {
    await fake.client.initialize(INIT);
    await fake.client.sessionCreate();
    await assert.rejects(
      fake.client.turnCancel("sess1", "nope"),
      (e) => e instanceof ProtocolError && e.code === "stale_run",
    );
    assert.equal(fake.client.failure, null);
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient rejects an unknown method locally", async () => {
  const fake = startFake("ok");
  try {
    // Typed callers cannot name an unknown method; JavaScript callers still get a TypeError.
    // @ts-expect-error: "no.such" is not a Method
    await assert.rejects(fake.client.request("no.such", {}), TypeError);
  } finally {
    await fake.dispose();
  }
});

const VIOLATIONS: { mode: string; reason: RegExp }[] = [
  { mode: "unknown_event", reason: /Unknown event name/ },
  { mode: "seq_gap", reason: /seq gap/ },
  { mode: "seq_repeat", reason: /seq repeated/ },
  { mode: "instance_change", reason: /instance_id changed/ },
  { mode: "bad_json", reason: /not strict JSON/ },
  { mode: "unknown_id", reason: /unknown request id/ },
  { mode: "unknown_type", reason: /Unknown frame type/ },
  { mode: "oversized", reason: /frame_too_large/ },
];

for (const { mode, reason } of VIOLATIONS) {
  Deno.test(`LocalAgentClient fails closed on a protocol violation: ${mode}`, async () => {
    const fake = startFake(mode);
    try {
      await fake.client.initialize(INIT);
      await fake.client.sessionCreate();
      const turn = fake.client.turnStart("sess1", "hello").then(() => null, (e) => e);
      await fake.client.done;
      const failure = fake.client.failure;
      assert.ok(failure instanceof ProtocolViolation, String(failure));
      assert.match(failure.message, reason);
      const settled = await turn;
      if (settled !== null) assert.ok(settled instanceof ProtocolViolation);
      await assert.rejects(fake.client.status(), ProtocolViolation);
      await assert.rejects(collect(fake), ProtocolViolation);
    } finally {
      await fake.dispose();
    }
  });
}

Deno.test("LocalAgentClient fails closed on an unknown error code", async () => {
  const fake = startFake("unknown_error");
  try {
    await assert.rejects(fake.client.initialize(INIT), /Unknown error code/);
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient fails closed on a schema-invalid result", async () => {
  const fake = startFake("bad_result");
  try {
    await assert.rejects(fake.client.initialize(INIT), /Invalid initialize result/);
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient fails closed on an extension event that was not negotiated", async () => {
  const fake = startFake("rogue_tool_call");
  try {
    const init = await fake.client.initialize({ required_capabilities: ["session.create"] });
    assert.ok(!init.capabilities.includes("client.tools"));
    await fake.client.sessionCreate();
    await fake.client.turnStart("sess1", "hello").catch(() => {});
    await fake.client.done;
    assert.match(String(fake.client.failure), /capability not negotiated: client.tool.call/);
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient rejects pending requests with BackendExited on a crash", async () => {
  const fake = startFake("crash");
  try {
    await startTurn(fake);
    await assert.rejects(collect(fake), (e) => e instanceof BackendExited && e.exitCode === 3);
    await assert.rejects(fake.client.status(), BackendExited);
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient reports the exit code when the backend dies during initialize", async () => {
  const fake = startFake("crash_init");
  try {
    await assert.rejects(
      fake.client.initialize(INIT),
      (e) => e instanceof BackendExited && e.exitCode === 5,
    );
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient does not hang on a backend that stalls and ignores SIGTERM", async () => {
  const fake = startFake("stall");
  try {
    await assert.rejects(
      fake.client.initialize(INIT, { signal: AbortSignal.timeout(300) }),
      (e) => e instanceof DOMException && e.name === "TimeoutError",
    );
    await fake.client.close();
    const info = await reapChild(fake.child, { closeGraceMs: 200, termGraceMs: 300 });
    assert.equal(info.signal, "SIGKILL");
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient never reuses a request ID, even after an abandoned request", async () => {
  const fake = startFake("ok");
  try {
    await fake.client.initialize(INIT);
    const controller = new AbortController();
    const abandoned = fake.client.status({ signal: controller.signal });
    controller.abort(new Error("gave up"));
    await assert.rejects(abandoned, /gave up/);
    const results = await Promise.all(Array.from({ length: 50 }, () => fake.client.status()));
    assert.equal(results.length, 50);
    assert.equal(fake.client.failure, null);
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient keeps reading while the event consumer is slow", async () => {
  const fake = startFake("flood");
  try {
    await startTurn(fake);
    // Nobody iterates events(): responses must still arrive.
    const status = await fake.client.status();
    assert.equal(status.readiness, "ready");
    const seen: string[] = [];
    for await (const event of fake.client.events()) {
      seen.push(event.event);
      if (event.event === "diagnostic") break;
    }
    assert.equal(seen.filter((e) => e === "message.delta").length, 2000);
  } finally {
    await fake.dispose();
  }
});

Deno.test("LocalAgentClient drops best-effort deltas beyond its queue bound, never critical events", async () => {
  const child = fakeChild({ mode: "flood" });
  const client = new LocalAgentClient(child, { maxQueuedEvents: 100 });
  try {
    await client.initialize(INIT);
    await client.sessionCreate();
    await client.turnStart("sess1", "hi");
    await client.status();
    assert.ok(client.droppedDeltas > 0);
    const seen: string[] = [];
    for await (const event of client.events()) {
      seen.push(event.event);
      if (event.event === "diagnostic") break;
    }
    assert.equal(seen.at(-1), "diagnostic");
  } finally {
    await client.close();
    await reapChild(child, { closeGraceMs: 500, termGraceMs: 500 });
  }
});
