import assert from "node:assert/strict";
import ticketLookup from "../../tools/http_json.ts";
import { runTool } from "./_context.ts";

const TICKET = {
  id: "ABC-1",
  title: "Login fails on Safari",
  status: "open",
  assignee: "dana",
  priority: "high",
  updated_at: "2026-11-01T10:00:00Z",
  description: "Steps: open the login page in Safari.",
  internal_notes: "not for the model",
};

/** A loopback ticket API on a free port; `TICKETS_API_URL` points at it during `fn`. */
async function withApi(
  handler: (request: Request) => Response | Promise<Response>,
  fn: (requests: string[]) => Promise<void>,
) {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    requests.push(new URL(request.url).pathname);
    return handler(request);
  });
  const previous = Deno.env.get("TICKETS_API_URL");
  Deno.env.set("TICKETS_API_URL", `http://127.0.0.1:${server.addr.port}/`);
  try {
    await fn(requests);
  } finally {
    if (previous === undefined) Deno.env.delete("TICKETS_API_URL");
    else Deno.env.set("TICKETS_API_URL", previous);
    await server.shutdown();
  }
}

Deno.test("ticket_lookup fetches a ticket and returns a compact, validated object", async () => {
  await withApi(() => Response.json(TICKET), async (requests) => {
    assert.deepEqual(await runTool(ticketLookup, { id: "ABC-1" }), {
      id: "ABC-1",
      title: "Login fails on Safari",
      status: "open",
      assignee: "dana",
      priority: "high",
      updated_at: "2026-11-01T10:00:00Z",
      summary: "Steps: open the login page in Safari.",
    });
    assert.deepEqual(requests, ["/tickets/ABC-1"]);
  });
});

Deno.test("ticket_lookup reports a non-2xx answer with the status and ticket", async () => {
  await withApi(() => new Response("no such ticket", { status: 404 }), async () => {
    await assert.rejects(runTool(ticketLookup, { id: "ABC-1" }), {
      name: "Error",
      message: "Ticket API answered 404 for ticket ABC-1",
    });
  });
});

Deno.test("ticket_lookup rejects a response of the wrong shape", async () => {
  await withApi(() => Response.json({ id: "ABC-1", status: "open" }), async () => {
    await assert.rejects(
      runTool(ticketLookup, { id: "ABC-1" }),
      /^Error: Ticket API answered with an unexpected shape for ticket ABC-1: title: /,
    );
  });
  await withApi(() => new Response("<html>", { status: 200 }), async () => {
    await assert.rejects(
      runTool(ticketLookup, { id: "ABC-1" }),
      /^Error: Ticket API answered with invalid JSON for ticket ABC-1$/,
    );
  });
});

Deno.test("ticket_lookup aborts the request when its signal fires", async () => {
  const arrived = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  await withApi(async () => {
    arrived.resolve();
    await release.promise;
    return Response.json(TICKET);
  }, async () => {
    const controller = new AbortController();
    const pending = runTool(ticketLookup, { id: "ABC-1" }, { signal: controller.signal });
    await arrived.promise;
    controller.abort();
    await assert.rejects(pending, { name: "AbortError" });
    release.resolve();
  });
});

Deno.test("ticket_lookup validates the id before any request", () => {
  assert.equal(ticketLookup.input.safeParse({ id: "ABC-1" }).success, true);
  assert.equal(ticketLookup.input.safeParse({ id: "../admin" }).success, false);
  assert.equal(ticketLookup.effect, "read");
  assert.equal(ticketLookup.timeoutMs, 10_000);
  assert.deepEqual(ticketLookup.permissions, { net: ["127.0.0.1:8765"], env: ["TICKETS_API_URL"] });
});
