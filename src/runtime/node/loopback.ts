/**
 * A loopback HTTP server on Node.js, for the adapter's `listenLoopback`: `node:http` with
 * Web `Request`/`Response` on the handler's side, the body streamed as it comes (an SSE
 * stream included), as `Deno.serve` does.
 *
 * @module
 */

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { LoopbackHandler, LoopbackServer } from "../types.ts";

async function toRequest(incoming: IncomingMessage, base: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = incoming.method ?? "GET";
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const chunks: Uint8Array[] = [];
    for await (const chunk of incoming as AsyncIterable<Uint8Array>) chunks.push(chunk);
    body = new Uint8Array(Buffer.concat(chunks));
  }
  return new Request(new URL(incoming.url ?? "/", base), {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

async function respond(
  handler: LoopbackHandler,
  exchange: { incoming: IncomingMessage; outgoing: ServerResponse; base: string },
  onError: (error: unknown) => void,
): Promise<void> {
  const { incoming, outgoing, base } = exchange;
  try {
    const response = await handler(await toRequest(incoming, base));
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.flushHeaders();
    // Streamed as it comes (an SSE stream included); a client that goes away cancels the body,
    // as Deno.serve does, so the handler learns that no one reads it.
    const reader = response.body?.getReader();
    const gone = () =>
      void reader?.cancel(new Error("The client closed the connection")).catch(() => {});
    outgoing.once("close", gone);
    try {
      while (reader !== undefined) {
        const { value, done } = await reader.read();
        if (done) break;
        outgoing.write(value);
      }
    } finally {
      outgoing.off("close", gone);
    }
    outgoing.end();
  } catch (error) {
    onError(error);
    if (!outgoing.headersSent) outgoing.writeHead(500);
    outgoing.end();
  }
}

/**
 * Serve `handler` on 127.0.0.1:`port` (0: a free port); resolves once it listens. Rejects
 * with an `EADDRINUSE` error when the port is taken. A handler failure goes to `onError`
 * and answers 500.
 */
export function listenLoopback(
  handler: LoopbackHandler,
  port: number,
  onError: (error: unknown) => void,
): Promise<LoopbackServer> {
  return new Promise((resolve, reject) => {
    let base = "http://127.0.0.1";
    const server = createServer((incoming, outgoing) => {
      void respond(handler, { incoming, outgoing, base }, onError);
    });
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      const address = server.address();
      const bound = typeof address === "object" && address !== null ? address.port : port;
      base = `http://127.0.0.1:${bound}`;
      resolve({
        url: base,
        stop: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
