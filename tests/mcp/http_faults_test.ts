/**
 * Issue 33 items 1 and 5: `magi-tools mcp --http` under clients that go away, driven by the MCP
 * SDK's `Client`. A client that drops its connection mid-call has its calls cancelled (the
 * tools see their signal fire) and holds no call slot; one client cannot take every slot; an
 * abandoned session (the SDK's `close()` sends no `DELETE`) expires and is evicted before a live
 * one; a server full of live sessions answers 503 with `Retry-After`. Every wait is on a marker
 * file or an answer, bounded, never a fixed sleep.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DEV_CONFIG, ROOT } from "../e2e/_cli.ts";
import { bearer, type McpHttpChild, startMcpHttp } from "./_http.ts";
import { eventually, fileBecomes } from "../_wait.ts";

const TOOLS = `${ROOT}tests/mcp/fixtures/fault_tools`;

interface CallResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
}

interface Connected {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** Resolves once the client's standalone GET stream got its answer (the session is live). */
  readonly streamOpen: Promise<void>;
}

async function connect(server: McpHttpChild): Promise<Connected> {
  const streamOpen = Promise.withResolvers<void>();
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: bearer(server.token),
    fetch: async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (init?.method === "GET" && response.ok) streamOpen.resolve();
      return response;
    },
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport, streamOpen: streamOpen.promise };
}

async function echo(client: Client, text: string): Promise<string | undefined> {
  const result = await client.callTool({ name: "echo", arguments: { text } }) as CallResult;
  assert.equal(result.isError, undefined, JSON.stringify(result));
  return result.content[0]?.text;
}

/** A raw `initialize` POST: its status and `Retry-After`. */
async function rawInitialize(server: McpHttpChild): Promise<[number, string | null]> {
  const response = await fetch(server.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${server.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    }),
  });
  await response.body?.cancel();
  return [response.status, response.headers.get("retry-after")];
}

/** A `ping` in session `id`: the HTTP status (404 once the session is gone). */
async function pingStatus(server: McpHttpChild, id: string): Promise<number> {
  const response = await fetch(server.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${server.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
  });
  await response.body?.cancel();
  return response.status;
}

async function withServer(
  args: string[],
  body: (server: McpHttpChild, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-mcp-faults-" });
  const server = await startMcpHttp({ tools: TOOLS, args });
  try {
    await body(server, dir);
  } finally {
    assert.equal(await server.stop(), 0, server.stderr());
    await Deno.remove(dir, { recursive: true });
  }
}

/** Start `drop_client.ts` running 3 calls of `tool`; kill it once all 3 started; their markers. */
async function dropClient(server: McpHttpChild, dir: string, tool: string): Promise<string[]> {
  const dropper = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...DEV_CONFIG,
      "-A",
      `${ROOT}tests/mcp/fixtures/drop_client.ts`,
      server.url,
      server.token!,
      dir,
      "3",
      tool,
    ],
    cwd: ROOT,
    stdout: "null",
    stderr: "null",
  }).spawn();
  const dropped = [0, 1, 2].map((i) => `${dir}/drop-${i}`);
  try {
    for (const marker of dropped) assert.equal(await fileBecomes(marker, "started"), "started");
  } finally {
    dropper.kill("SIGKILL");
    await dropper.status;
  }
  return dropped;
}

/** With every slot A had free again, B runs 3 calls and C's echo gets the fourth slot. */
async function slotsAreFree(server: McpHttpChild, dir: string): Promise<void> {
  const b = await connect(server);
  const c = await connect(server);
  const stop = new AbortController();
  const held = [0, 1, 2].map((i) => `${dir}/b-${i}`);
  const calls = held.map((marker) =>
    b.client.callTool({ name: "hold", arguments: { marker } }, undefined, {
      signal: stop.signal,
    }).catch(() => "cancelled")
  );
  try {
    for (const marker of held) assert.equal(await fileBecomes(marker, "started"), "started");
    assert.equal(await echo(c.client, "through"), "through");
  } finally {
    stop.abort();
    await Promise.all(calls);
    await b.client.close();
    await c.client.close();
  }
}

Deno.test("mcp --http: a client killed mid-call has its calls cancelled and holds no slot", async () => {
  await withServer([], async (server, dir) => {
    // Client A (a child process) starts 3 calls, as many as one client may run at once.
    const dropped = await dropClient(server, dir, "hold");
    // Its connections dropped without a cancel: every one of its tools sees its signal fire.
    for (const marker of dropped) assert.equal(await fileBecomes(marker, "cancelled"), "cancelled");
    await slotsAreFree(server, dir);
  });
});

Deno.test("mcp --http: busy-looping process-isolated calls of a killed client are killed, freeing their slots", async () => {
  // The directory spin.ts may write to.
  await Deno.mkdir("/tmp/magi-tools-mcp-spin", { recursive: true });
  const markers = await Deno.makeTempDir({ dir: "/tmp/magi-tools-mcp-spin" });
  try {
    await withServer([], async (server, dir) => {
      // The tools never look at their signal: after the cancel grace their processes are killed.
      await dropClient(server, markers, "spin");
      await slotsAreFree(server, dir);
    });
  } finally {
    await Deno.remove(markers, { recursive: true });
  }
});

Deno.test("mcp --http: one client cannot take every call slot; another's call runs meanwhile", async () => {
  await withServer([], async (server, dir) => {
    const a = await connect(server);
    const b = await connect(server);
    const stop = new AbortController();
    const markers = [0, 1, 2, 3].map((i) => `${dir}/a-${i}`);
    const calls = markers.map((marker) =>
      a.client.callTool({ name: "hold", arguments: { marker } }, undefined, {
        signal: stop.signal,
      }).catch(() => "cancelled")
    );
    const started = async () =>
      (await Promise.all(
        markers.map((marker) => Deno.readTextFile(marker).catch(() => "")),
      )).filter((text) => text === "started").length;
    try {
      assert.ok(await eventually(async () => await started() >= 3), "A's calls did not start");
      // A holds 3 of the 4 slots and its fourth call waits; B's call is not queued behind them.
      const winner = await Promise.race([
        echo(b.client, "mine").then((text) => `echo ${text}`),
        eventually(async () => await started() === 4).then(() => "A took the fourth slot"),
      ]);
      assert.equal(winner, "echo mine");
      assert.equal(await started(), 3, "A's fourth call ran while A held 3 slots");
    } finally {
      stop.abort();
      await Promise.all(calls);
      await a.client.close();
      await b.client.close();
    }
  });
});

Deno.test("mcp --http: a live session survives 70 abandoned reconnects (idle sessions go first)", async () => {
  await withServer([], async (server) => {
    // A long-lived client, connected first: live while its GET stream is open.
    const live = await connect(server);
    await live.streamOpen;
    assert.equal(await echo(live.client, "before"), "before");
    for (let i = 0; i < 70; i++) {
      // An SDK client's close() sends no DELETE: each session is abandoned, not ended.
      const { client } = await connect(server);
      assert.equal(await echo(client, `r${i}`), `r${i}`);
      await client.close();
    }
    assert.equal(await echo(live.client, "after"), "after");
    await live.client.close();
  });
});

Deno.test("mcp --http --max-sessions 2: full of live sessions answers 503 with Retry-After, then makes room", async () => {
  await withServer(["--max-sessions", "2"], async (server, dir) => {
    const stop = new AbortController();
    const clients = [await connect(server), await connect(server)];
    // Each session has a call in flight: both are live.
    const calls = clients.map(({ client }, i) =>
      client.callTool({ name: "hold", arguments: { marker: `${dir}/live-${i}` } }, undefined, {
        signal: stop.signal,
      }).catch(() => "cancelled")
    );
    try {
      for (const i of [0, 1]) {
        assert.equal(await fileBecomes(`${dir}/live-${i}`, "started"), "started");
      }
      const [status, retryAfter] = await rawInitialize(server);
      assert.equal(status, 503);
      assert.match(retryAfter ?? "", /^\d+$/);
      // Both live sessions still work.
      assert.equal(await echo(clients[0]!.client, "one"), "one");
      assert.equal(await echo(clients[1]!.client, "two"), "two");
    } finally {
      stop.abort();
      await Promise.all(calls);
    }
    // The first client leaves without DELETE: its session is idle and makes room. The server
    // learns that its stream closed a moment later, so a new client may still be told 503 (and
    // to retry) until then: retry as Retry-After says, bounded.
    await clients[0]!.client.close();
    let third: Awaited<ReturnType<typeof connect>> | undefined;
    assert.ok(
      await eventually(async () => {
        third = await connect(server).catch(() => undefined);
        return third !== undefined;
      }),
      "no room was made for a third client",
    );
    third = third!;
    assert.equal(await echo(third.client, "three"), "three");
    assert.equal(await echo(clients[1]!.client, "still"), "still");
    await third.client.close();
    await clients[1]!.client.close();
  });
});

Deno.test("mcp --http --session-idle-timeout: an abandoned session expires, a live one stays", async () => {
  await withServer(["--session-idle-timeout", "0.5"], async (server, dir) => {
    const live = await connect(server);
    const stop = new AbortController();
    const call = live.client.callTool(
      { name: "hold", arguments: { marker: `${dir}/live` } },
      undefined,
      { signal: stop.signal },
    ).catch(() => "cancelled");
    try {
      assert.equal(await fileBecomes(`${dir}/live`, "started"), "started");
      const gone = await connect(server);
      assert.equal(await echo(gone.client, "bye"), "bye");
      const id = gone.transport.sessionId!;
      await gone.client.close();
      // Expired after its idle timeout: the server says so on stderr (a request would be
      // activity, so the session is not polled), and then it is gone.
      assert.ok(
        await eventually(() => server.stderr().includes(`session ${id} closed after 0.5 s idle`)),
        server.stderr(),
      );
      assert.equal(await pingStatus(server, id), 404);
      // The live session's last request is older than the expired one's, and it still works.
      assert.equal(await echo(live.client, "here"), "here");
      assert.equal(await Deno.readTextFile(`${dir}/live`), "started");
    } finally {
      stop.abort();
      await call;
      await live.client.close();
    }
  });
});

Deno.test("mcp --http: ending a session (DELETE) cancels its running calls", async () => {
  await withServer([], async (server, dir) => {
    const a = await connect(server);
    const stop = new AbortController();
    const call = a.client.callTool(
      { name: "hold", arguments: { marker: `${dir}/deleted` } },
      undefined,
      { signal: stop.signal },
    ).catch(() => "ended");
    assert.equal(await fileBecomes(`${dir}/deleted`, "started"), "started");
    await a.transport.terminateSession();
    assert.equal(await fileBecomes(`${dir}/deleted`, "cancelled"), "cancelled");
    stop.abort();
    await call;
    await a.client.close();
  });
});
