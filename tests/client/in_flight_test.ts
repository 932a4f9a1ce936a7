import assert from "node:assert/strict";
import { AgentConnection, MAX_IN_FLIGHT_REQUESTS } from "../../src/client/connection.ts";
import type { ClientToolResultParams } from "../../src/protocol/schemas/mod.ts";

const INSTANCE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const te = new TextEncoder();

/** A connection over in-memory pipes: the request IDs it wrote, and a way to answer them. */
function harness() {
  const written: string[] = [];
  const decoder = new TextDecoder();
  const stdin = new WritableStream<Uint8Array>({
    write(chunk) {
      for (const line of decoder.decode(chunk).split("\n")) {
        if (line !== "") written.push(JSON.parse(line).id);
      }
    },
  });
  let output!: ReadableStreamDefaultController<Uint8Array>;
  const stdout = new ReadableStream<Uint8Array>({ start: (c) => void (output = c) });
  const connection = new AgentConnection({ stdin, stdout });
  let seq = 0;
  const answer = (id: string, body: object = { result: { recorded: true, complete: false } }) =>
    output.enqueue(te.encode(
      JSON.stringify({
        protocol: "magi-code.local-agent",
        version: 1,
        type: "response",
        instance_id: INSTANCE,
        seq: ++seq,
        id,
        ...body,
      }) + "\n",
    ));
  return { written, connection, answer, end: () => output.close() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

function part(n: number): ClientToolResultParams {
  return {
    session_id: "s1",
    run_id: "r1",
    call_id: "c1",
    part: n,
    last_part: false,
    outcome: "success",
    text: "x",
  };
}

Deno.test("AgentConnection writes at most MAX_IN_FLIGHT_REQUESTS unanswered requests, the rest in order as answers arrive", async () => {
  const { written, connection, answer, end } = harness();
  const results = Array.from(
    { length: 40 },
    (_, n) => connection.request("client.tool.result", part(n)),
  );
  await settle();
  assert.equal(written.length, MAX_IN_FLIGHT_REQUESTS);
  answer(written[0]!);
  answer(written[1]!);
  await settle();
  assert.equal(written.length, MAX_IN_FLIGHT_REQUESTS + 2);
  // status is never held back.
  const status = connection.request("status", {}).catch((error: Error) => error.name);
  await settle();
  assert.equal(written.length, MAX_IN_FLIGHT_REQUESTS + 3);
  assert.equal(written.at(-1), "r41");
  answer("r41", { error: { code: "not_initialized" } });
  assert.equal(await status, "ProtocolError");
  const parts = () => written.filter((id) => id !== "r41");
  for (let answered = 2; answered < 40; answered++) {
    while (parts().length <= answered) await settle();
    answer(parts()[answered]!);
  }
  await Promise.all(results);
  assert.deepEqual(parts(), Array.from({ length: 40 }, (_, n) => `r${n + 1}`));
  end();
  await connection.close();
});

Deno.test("AgentConnection rejects held-back requests when it fails", async () => {
  const { written, connection } = harness();
  const results = Array.from(
    { length: MAX_IN_FLIGHT_REQUESTS + 4 },
    (_, n) => connection.request("client.tool.result", part(n)).catch((error: Error) => error.name),
  );
  await settle();
  assert.equal(written.length, MAX_IN_FLIGHT_REQUESTS);
  await connection.close();
  const reasons = await Promise.all(results);
  assert.ok(reasons.every((name) => name === "ClientClosed"), String(reasons));
  assert.equal(written.length, MAX_IN_FLIGHT_REQUESTS); // close() cancelled the output stream.
});
