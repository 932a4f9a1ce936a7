import assert from "node:assert/strict";
import {
  AgentConnection,
  MAX_IN_FLIGHT_REQUESTS,
  PRIORITY_IN_FLIGHT_SLOTS,
} from "../../src/client/connection.ts";
import { markPlainAscii } from "../../src/client/request_frame.ts";
import { LIMITS } from "../../src/protocol/limits.ts";
import type { ClientToolResultParams } from "../../src/protocol/schemas/mod.ts";
import { drainMicrotasks } from "../_fake_time.ts";

/** Ordinary requests in flight at most. */
const ORDINARY = MAX_IN_FLIGHT_REQUESTS - PRIORITY_IN_FLIGHT_SLOTS;

const INSTANCE = "0f8fad5b-d9cb-469f-a165-70867728950e";
const te = new TextEncoder();

/** A response frame's line: `body` is its `result` or `error` member (default: part recorded). */
function responseLine(
  seq: number,
  id: string,
  body: object = { result: { recorded: true, complete: false } },
): string {
  return JSON.stringify({
    protocol: "magi-code.local-agent",
    version: 1,
    type: "response",
    instance_id: INSTANCE,
    seq,
    id,
    ...body,
  }) + "\n";
}

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
  const answer = (id: string, body?: object) =>
    output.enqueue(te.encode(responseLine(++seq, id, body)));
  return { written, connection, answer, end: () => output.close() };
}

/**
 * Let the connection act on what happened (everything here is in-memory streams and promises,
 * no timers): after one drained turn of the event loop, it wrote all it is going to write.
 */
const settle = drainMicrotasks;

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

Deno.test("AgentConnection's in-flight bound fits the backend's output: 24 event frames + requests <= 32", () => {
  // docs/reference-backend.md "What a client can rely on": run events never fill more than 24
  // of the 32 pending output frames; every request in flight adds at most one answer.
  assert.equal(LIMITS.pending_output_frames, 32);
  assert.ok(24 + MAX_IN_FLIGHT_REQUESTS <= LIMITS.pending_output_frames);
  assert.ok(ORDINARY >= 1 && PRIORITY_IN_FLIGHT_SLOTS >= 1);
});

Deno.test("AgentConnection writes at most the ordinary share of unanswered requests, the rest in order as answers arrive", async () => {
  const { written, connection, answer, end } = harness();
  const results = Array.from(
    { length: 40 },
    (_, n) => connection.request("client.tool.result", part(n)),
  );
  await settle();
  assert.equal(written.length, ORDINARY);
  answer(written[0]!);
  answer(written[1]!);
  await settle();
  assert.equal(written.length, ORDINARY + 2);
  // status uses a priority slot: not held behind the parts.
  const status = connection.request("status", {}).catch((error: Error) => error.name);
  await settle();
  assert.equal(written.length, ORDINARY + 3);
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

Deno.test("AgentConnection counts turn.cancel, status and shutdown in the bound too", async () => {
  const { written, connection, answer, end } = harness();
  const ordinary = Array.from(
    { length: 10 },
    (_, n) => connection.request("client.tool.result", part(n)).catch(() => {}),
  );
  const priority = Array.from(
    { length: 5 },
    () => connection.request("status", {}).catch(() => {}),
  );
  await settle();
  // 6 ordinary + 2 status: the whole window, never more.
  assert.equal(written.length, MAX_IN_FLIGHT_REQUESTS);
  assert.deepEqual(written.slice(ORDINARY), ["r11", "r12"]);
  // An answered ordinary request lets a held status out first (priority before ordinary).
  answer(written[0]!);
  await settle();
  assert.equal(written.length, MAX_IN_FLIGHT_REQUESTS + 1);
  assert.equal(written.at(-1), "r13");
  // Three statuses answered: the two held ones go out first, then one ordinary request
  // (5 ordinary + 2 status = 7 in flight, room for an ordinary one again).
  for (const id of ["r11", "r12", "r13"]) answer(id, { error: { code: "not_initialized" } });
  await settle();
  assert.deepEqual(written.slice(MAX_IN_FLIGHT_REQUESTS + 1), ["r14", "r15", "r7"]);
  // In flight now: r2–r7 (6 ordinary) and r14, r15: the whole window again.
  const answered = new Set(["r1", "r11", "r12", "r13"]);
  assert.equal(written.filter((id) => !answered.has(id)).length, MAX_IN_FLIGHT_REQUESTS);
  end();
  await connection.close();
  await Promise.all([...ordinary, ...priority]);
});

Deno.test("AgentConnection rejects held-back requests when it fails", async () => {
  const { written, connection } = harness();
  const results = Array.from(
    { length: ORDINARY + 4 },
    (_, n) => connection.request("client.tool.result", part(n)).catch((error: Error) => error.name),
  );
  await settle();
  assert.equal(written.length, ORDINARY);
  await connection.close();
  const reasons = await Promise.all(results);
  assert.ok(reasons.every((name) => name === "ClientClosed"), String(reasons));
  assert.equal(written.length, ORDINARY); // close() cancelled the output stream.
});

Deno.test("AgentConnection writes requests sent together(), and those a chunk of answers frees, in one write each", async () => {
  const writes: string[][] = [];
  const decoder = new TextDecoder();
  const stdin = new WritableStream<Uint8Array>({
    write(chunk) {
      writes.push(
        decoder.decode(chunk).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l).id),
      );
    },
  });
  let output!: ReadableStreamDefaultController<Uint8Array>;
  const stdout = new ReadableStream<Uint8Array>({ start: (c) => void (output = c) });
  const connection = new AgentConnection({ stdin, stdout });
  const results = connection.together(() =>
    Array.from(
      { length: ORDINARY + 3 },
      (_, n) => connection.request("client.tool.result", part(n)),
    )
  );
  await settle();
  const first = Array.from({ length: ORDINARY }, (_, n) => `r${n + 1}`);
  assert.deepEqual(writes, [first]);
  // Three answers in one chunk free three slots: the three requests held back leave together.
  const answers = ["r1", "r2", "r3"].map((id, n) => responseLine(n + 1, id)).join("");
  output.enqueue(te.encode(answers));
  await settle();
  const rest = Array.from({ length: 3 }, (_, n) => `r${ORDINARY + n + 1}`);
  assert.deepEqual(writes, [first, rest]);
  output.close();
  await connection.close();
  await Promise.allSettled(results);
});

Deno.test("AgentConnection uses result parts' frame memory again only once stdin's bytes left the process", async () => {
  const writes: { chunk: Uint8Array; text: string }[] = [];
  const decoder = new TextDecoder();
  // Like Node.js' stdin: a write counts as unflushed until the test lets the pipe take it.
  let unflushed = 0;
  const stdin = new WritableStream<Uint8Array>({
    // The text is read when the chunk is written: what the pipe would have got.
    write: (chunk) => {
      unflushed += chunk.length;
      writes.push({ chunk, text: decoder.decode(chunk) });
    },
  });
  let output!: ReadableStreamDefaultController<Uint8Array>;
  const stdout = new ReadableStream<Uint8Array>({ start: (c) => void (output = c) });
  const connection = new AgentConnection({ stdin, stdout, stdinUnflushed: () => unflushed });
  let seq = 0;
  const answer = (id: string) => output.enqueue(te.encode(responseLine(++seq, id)));
  let nextId = 1;
  /** Send a result of two long plain parts (written around their text, in the arena). */
  const send = async (letter: string) => {
    const ids = [`r${nextId++}`, `r${nextId++}`];
    const results = connection.together(() =>
      [0, 1].map((n) => {
        const params = { ...part(n), text: letter.repeat(2_000) };
        markPlainAscii(params);
        return connection.request("client.tool.result", params);
      })
    );
    await settle();
    for (const id of ids) answer(id);
    await Promise.all(results);
    return writes.at(-1)!;
  };
  const texts = (write: { text: string }) =>
    write.text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l).params.text);
  const a = await send("a");
  assert.deepEqual(texts(a), ["a".repeat(2_000), "a".repeat(2_000)]); // one write, both parts
  // Written and answered, but a's bytes still wait in the process: b's frames come after a's.
  const b = await send("b");
  assert.equal(b.chunk.buffer, a.chunk.buffer);
  assert.equal(b.chunk.byteOffset, a.chunk.byteOffset + a.chunk.length);
  // a's bytes left, b's (and one byte of a's) not: still not the start of the memory.
  unflushed = b.chunk.length + 1;
  const c = await send("c");
  assert.equal(c.chunk.buffer, a.chunk.buffer);
  assert.equal(c.chunk.byteOffset, b.chunk.byteOffset + b.chunk.length);
  // Everything left: the memory is used again from its start, and the frames are whole.
  unflushed = 0;
  const d = await send("d");
  assert.equal(d.chunk.buffer, a.chunk.buffer);
  assert.equal(d.chunk.byteOffset, 0);
  assert.deepEqual(texts(d), ["d".repeat(2_000), "d".repeat(2_000)]);
  assert.equal(decoder.decode(d.chunk), d.text);
  output.close();
  await connection.close();
});
