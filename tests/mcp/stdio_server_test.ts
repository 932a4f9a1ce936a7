import assert from "node:assert/strict";
import { GuardedStdioTransport } from "../../src/mcp/stdio_server.ts";
import type { JSONRPCMessage } from "../../src/mcp/_sdk.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Stdin that yields `lines` and then ends. */
async function* stdin(...lines: string[]): AsyncIterable<Uint8Array> {
  for (const line of lines) yield encoder.encode(line + "\n");
}

function transportOver(input: AsyncIterable<Uint8Array>, drainMs?: number) {
  const written: string[] = [];
  const transport = new GuardedStdioTransport({
    input,
    write: (bytes) => {
      written.push(decoder.decode(bytes));
      return Promise.resolve();
    },
    ...(drainMs === undefined ? {} : { drainMs }),
  });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  return { transport, written, closed };
}

Deno.test("GuardedStdioTransport answers a request read just before stdin ends, then closes", async () => {
  const request = { jsonrpc: "2.0", id: 7, method: "ping" };
  const { transport, written, closed } = transportOver(stdin(JSON.stringify(request)));
  let answer: (() => void) | undefined;
  transport.onmessage = (message: JSONRPCMessage) => {
    // The answer comes later than the end of stdin, as a server's async handler does.
    answer = () =>
      void transport.send({ jsonrpc: "2.0", id: (message as { id: number }).id, result: {} });
  };
  let isClosed = false;
  void closed.then(() => (isClosed = true));
  await transport.start();
  // Wait until the request was read; stdin has ended by then.
  while (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 0));
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(isClosed, false, "closed before the request was answered");
  answer();
  await closed;
  assert.deepEqual(written.map((line) => JSON.parse(line)), [{
    jsonrpc: "2.0",
    id: 7,
    result: {},
  }]);
});

Deno.test("GuardedStdioTransport closes at once when stdin ends with nothing unanswered", async () => {
  const note = { jsonrpc: "2.0", method: "notifications/initialized" };
  const { transport, closed } = transportOver(stdin(JSON.stringify(note)));
  transport.onmessage = () => {};
  await transport.start();
  await closed;
});

Deno.test("GuardedStdioTransport stops waiting for an unanswered request after drainMs", async () => {
  const request = { jsonrpc: "2.0", id: "a", method: "tools/call" };
  const { transport, written, closed } = transportOver(stdin(JSON.stringify(request)), 1);
  transport.onmessage = () => {};
  await transport.start();
  await closed;
  assert.deepEqual(written, []);
});

Deno.test("GuardedStdioTransport does not wait for a request the client cancelled", async () => {
  const request = { jsonrpc: "2.0", id: "a", method: "tools/call" };
  const cancel = {
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: "a" },
  };
  const input = stdin(JSON.stringify(request), JSON.stringify(cancel));
  // A drain limit the test would notice: closing must not wait for it.
  const { transport, written, closed } = transportOver(input, 600_000);
  transport.onmessage = () => {};
  await transport.start();
  await closed;
  assert.deepEqual(written, []);
  assert.equal(transport.inputEnded.aborted, false, "nothing was left to cancel");
});

Deno.test("GuardedStdioTransport fires inputEnded after the grace, then closes once answered", async () => {
  const request = { jsonrpc: "2.0", id: 3, method: "tools/call" };
  const transport = new GuardedStdioTransport({
    input: stdin(JSON.stringify(request)),
    write: () => Promise.resolve(),
    graceMs: 1,
    drainMs: 600_000,
  });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  transport.onmessage = () => {};
  // The server answers the call once its signal fires, as a cancelled tool call is answered.
  transport.inputEnded.addEventListener("abort", () => {
    void transport.send({ jsonrpc: "2.0", id: 3, result: { isError: true, content: [] } });
  });
  await transport.start();
  await closed;
  assert.equal(transport.inputEnded.aborted, true);
});
