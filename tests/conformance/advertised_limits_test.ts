/**
 * The project's client checks `client.tool.call` arguments and `client.tool.result` parts
 * against the `client.tools` limits the backend advertised, not copied constants — over real
 * pipes to a backend (the fake fixture) that advertises other limits than the defaults.
 */

import assert from "node:assert/strict";
import { ProtocolViolation } from "../../src/client/errors.ts";
import type { AgentEvent } from "../../src/client/events.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";
import { startFake } from "../client/_fake.ts";
import { readTool } from "./_fixtures.ts";

const INIT = {
  required_capabilities: ["client.tools", "session.create", "turn.start", "shutdown"],
  client_tools: [readTool("lookup")],
};

/** Run one turn whose tool call carries `args`; the first client.tool.call event, or the failure. */
async function callWith(
  args: Record<string, unknown>,
  limits: Record<string, number>,
): Promise<{ call: AgentEvent | null; failure: Error | null }> {
  const fake = startFake("tool_call", {
    FAKE_ARGS: JSON.stringify(args),
    FAKE_TOOL_LIMITS: JSON.stringify(limits),
  });
  try {
    const init = await fake.client.initialize(INIT);
    assert.deepEqual(
      init.descriptors?.["client.tools"]?.limits,
      { ...CLIENT_TOOLS_LIMITS, ...limits },
      "the advertised limits",
    );
    const events = fake.client.events()[Symbol.asyncIterator]();
    const session = await fake.client.sessionCreate();
    await fake.client.turnStart(session.session_id, "call the tool").catch(() => {});
    for (;;) {
      const next = await events.next().catch(() => ({ done: true as const, value: undefined }));
      if (next.done) return { call: null, failure: fake.client.failure };
      if ((next.value as AgentEvent).event === "client.tool.call") {
        return { call: next.value as AgentEvent, failure: fake.client.failure };
      }
    }
  } finally {
    await fake.dispose();
  }
}

Deno.test("client: arguments over a smaller advertised arguments_bytes fail closed", async () => {
  const args = { q: "x".repeat(100) };
  const { call, failure } = await callWith(args, { arguments_bytes: 64 });
  assert.equal(call, null, "the call was not delivered");
  assert.ok(failure instanceof ProtocolViolation, String(failure));
  assert.match(failure.message, /Invalid client\.tool\.call data: arguments/);
});

Deno.test("client: arguments within a larger advertised arguments_bytes are accepted", async () => {
  const bytes = CLIENT_TOOLS_LIMITS.arguments_bytes + 8_000;
  const args = { q: "x".repeat(bytes) };
  const { call, failure } = await callWith(args, { arguments_bytes: bytes + 100 });
  assert.equal(failure, null, String(failure));
  assert.ok(call?.event === "client.tool.call");
  assert.equal(String(call.data.arguments.q).length, bytes);
});

Deno.test("client: result parts are checked against the advertised result_part_bytes and result_parts", async () => {
  const fake = startFake("tool_call", {
    FAKE_ARGS: "{}",
    FAKE_TOOL_LIMITS: JSON.stringify({ result_part_bytes: 16, result_parts: 2 }),
  });
  try {
    await fake.client.initialize(INIT);
    const events = fake.client.events()[Symbol.asyncIterator]();
    const session = await fake.client.sessionCreate();
    const { run_id } = await fake.client.turnStart(session.session_id, "call the tool");
    let call: AgentEvent | undefined;
    while (call?.event !== "client.tool.call") call = (await events.next()).value as AgentEvent;
    const base = {
      session_id: session.session_id,
      run_id,
      call_id: call.data.call_id,
      outcome: "success" as const,
    };
    const before = fake.client.remainingRequestIds;
    await assert.rejects(
      fake.client.clientToolResult({ ...base, part: 0, last_part: false, text: "x".repeat(17) }),
      (e) => e instanceof RangeError && /result_part_bytes \(16\): 17 bytes/.test(e.message),
    );
    await assert.rejects(
      fake.client.clientToolResult({ ...base, part: 2, last_part: true, text: "x" }),
      (e) => e instanceof RangeError && /result_parts \(2\): part 2/.test(e.message),
    );
    assert.equal(fake.client.remainingRequestIds, before, "nothing was sent");
    // Parts within the advertised limits go through.
    const first = await fake.client.clientToolResult({
      ...base,
      part: 0,
      last_part: false,
      text: "x".repeat(16),
    });
    assert.equal(first.recorded, true);
    const last = await fake.client.clientToolResult({
      ...base,
      part: 1,
      last_part: true,
      text: "",
    });
    assert.equal(last.complete, true);
    assert.equal(fake.client.failure, null);
  } finally {
    await fake.dispose();
  }
});
