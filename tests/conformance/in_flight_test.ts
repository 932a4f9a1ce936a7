/**
 * The in-flight budget: the project's client keeps at most `MAX_IN_FLIGHT_REQUESTS` requests
 * in flight (`turn.cancel`, `status` and `shutdown` included), and that plus the run events
 * the backend may queue fits its 32 output frames — proven over pipes (real ones with
 * `MAGI_BACKEND`; with the reference backend in-process, in-memory ones that hold and coalesce
 * bytes like a pipe: `_transport.ts`) with the client at its maximum while a turn streams a
 * long reply to a slow reader.
 */

import assert from "node:assert/strict";
import { MAX_IN_FLIGHT_REQUESTS } from "../../src/client/connection.ts";
import type { AgentEvent } from "../../src/client/events.ts";
import { REFERENCE } from "./_command.ts";
import { spawnClient } from "./_client.ts";

/** Request/response frames seen on the pipes, for the in-flight count. */
class Watch {
  written = 0;
  answered = 0;
  max = 0;
  #decoder = new TextDecoder();
  #tail = "";

  /** stdin: count request frames as they are written. */
  requests(inner: WritableStream<Uint8Array>): WritableStream<Uint8Array> {
    const writer = inner.getWriter();
    const decoder = new TextDecoder();
    return new WritableStream<Uint8Array>({
      write: async (chunk) => {
        this.written += decoder.decode(chunk).split("\n").length - 1;
        this.max = Math.max(this.max, this.written - this.answered);
        await writer.write(chunk);
      },
      close: () => writer.close(),
      abort: (reason) => writer.abort(reason),
    });
  }

  /** stdout, read slowly (a pause before every chunk): count response frames delivered. */
  slowResponses(inner: ReadableStream<Uint8Array>, pauseMs: number): ReadableStream<Uint8Array> {
    const reader = inner.getReader();
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        const { done, value } = await reader.read();
        if (done) return controller.close();
        const text = this.#tail + this.#decoder.decode(value, { stream: true });
        const lines = text.split("\n");
        this.#tail = lines.pop()!;
        this.answered += lines.filter((l) => l.includes('"type":"response"')).length;
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
  }
}

Deno.test(
  "the client's maximum in flight plus a streaming turn's events fit the backend's output",
  {
    ignore: !REFERENCE,
  },
  async () => {
    // 300 segments of 16,000 bytes: the reply outlasts the test; the reader is slower.
    const steps = Array.from({ length: 300 }, () => ({ say: "0123456789abcdef", repeat: 1_000 }));
    const watch = new Watch();
    const child = await spawnClient({
      prepare: async (ws) => ({ MAGI_SCENARIO: await ws.writeScenario({ turns: [{ steps }] }) }),
      stdin: (s) => watch.requests(s),
      stdout: (s) => watch.slowResponses(s, 15),
    });
    const { client } = child;
    try {
      await client.initialize({
        required_capabilities: [
          "session.create",
          "turn.start",
          "turn.cancel",
          "status",
          "shutdown",
        ],
      });
      const session = await client.sessionCreate();
      const events = client.events()[Symbol.asyncIterator]();
      const admitted = await client.turnStart(session.session_id, "talk at length");
      // Wait until the reply streams (output is crowded from here on).
      for (;;) {
        const next = await events.next();
        assert.ok(!next.done, "events ended early");
        if ((next.value as AgentEvent).event === "message.reconcile") break;
      }
      // Keep the client at its maximum for a while: ordinary requests (answered `busy` during a
      // run), statuses, and finally turn.cancel, all at once.
      const requests: Promise<unknown>[] = [];
      for (let i = 0; i < 60; i++) {
        requests.push(client.request("session.create", {}).catch((e: Error) => e.name));
        if (i % 4 === 0) requests.push(client.status().catch((e: Error) => e.name));
      }
      const settled = await Promise.all(requests);
      assert.equal(client.failure, null, `client failed: ${client.failure}\n${child.stderr()}`);
      assert.ok(
        settled.every((r) => r === "ProtocolError" || typeof r === "object"),
        "all answered",
      );
      await client.turnCancel(session.session_id, admitted.run_id);
      for (;;) {
        const next = await events.next();
        assert.ok(!next.done, `events ended before run.finished: ${client.failure}`);
        const event = next.value as AgentEvent;
        if (event.event === "run.finished") {
          assert.equal((event.data as Record<string, unknown>).outcome, "cancelled");
          break;
        }
      }
      assert.equal(watch.max, MAX_IN_FLIGHT_REQUESTS, "the client reached its bound, never more");
      await client.shutdown();
      await client.endInput();
      const status = await child.status;
      assert.equal(status.code, 0, `backend exit ${status.code}: ${child.stderr()}`);
    } finally {
      await child.dispose();
    }
  },
);
