import assert from "node:assert/strict";
import * as denoAdapter from "../../src/runtime/mod.ts";
import * as nodeAdapter from "../../src/runtime/node/mod.ts";

// Compile-time parity: the Node adapter can stand in wherever the Deno one is imported.
const _nodeFitsDeno: typeof denoAdapter = nodeAdapter;
const _denoFitsNode: typeof nodeAdapter = denoAdapter;

Deno.test("the Node adapter exports exactly the Deno adapter's names", () => {
  assert.deepEqual(Object.keys(nodeAdapter).sort(), Object.keys(denoAdapter).sort());
});

Deno.test("supportsProcessIsolation() is true on Deno's adapter and false on Node's", () => {
  assert.equal(denoAdapter.supportsProcessIsolation(), true);
  assert.equal(nodeAdapter.supportsProcessIsolation(), false);
  assert.equal(denoAdapter.runtimeName(), "deno");
  assert.equal(nodeAdapter.runtimeName(), "node");
});

Deno.test("both adapters' spawnChild() throw SpawnError for a missing command", () => {
  for (const adapter of [denoAdapter, nodeAdapter]) {
    assert.throws(
      () => adapter.spawnChild("magi-tools-no-such-command", []),
      (error: unknown) =>
        error instanceof denoAdapter.SpawnError &&
        error.message === "Cannot start command: magi-tools-no-such-command",
    );
  }
});

Deno.test("the Node adapter's isAddrInUse() recognizes EADDRINUSE only", () => {
  assert.equal(
    nodeAdapter.isAddrInUse(Object.assign(new Error("x"), { code: "EADDRINUSE" })),
    true,
  );
  assert.equal(nodeAdapter.isAddrInUse(new Error("x")), false);
  assert.equal(nodeAdapter.isAddrInUse(null), false);
});

Deno.test("the Node adapter's serveLoopback() says to use listenLoopback", () => {
  assert.throws(() => nodeAdapter.serveLoopback(() => new Response("")), /use listenLoopback/);
});

Deno.test("the Deno adapter's listenLoopback() serves the handler on 127.0.0.1", async () => {
  const server = await denoAdapter.listenLoopback((request) =>
    new Response(new URL(request.url).pathname)
  );
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server.url}/ping`);
    assert.equal(await response.text(), "/ping");
  } finally {
    await server.stop();
  }
});

Deno.test("both adapters' listenLoopback() stream a body and cancel it when the client goes away", async () => {
  for (const adapter of [denoAdapter, nodeAdapter]) {
    const cancelled = Promise.withResolvers<void>();
    const server = await adapter.listenLoopback(() =>
      new Response(
        new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(new TextEncoder().encode("first\n")),
          cancel: () => cancelled.resolve(),
        }),
        { headers: { "content-type": "text/event-stream" } },
      )
    );
    try {
      const client = new AbortController();
      // Bounded (a buffering adapter would never answer), not timed: the answer comes at once.
      const response = await fetch(`${server.url}/stream`, {
        signal: AbortSignal.any([client.signal, AbortSignal.timeout(30_000)]),
      });
      const reader = response.body!.getReader();
      // The first chunk arrives while the stream is still open: it was not buffered to the end.
      assert.equal(new TextDecoder().decode((await reader.read()).value), "first\n");
      client.abort();
      await reader.cancel().catch(() => {});
      await cancelled.promise;
    } finally {
      await server.stop();
    }
  }
});
