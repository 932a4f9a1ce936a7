/**
 * A loopback proxy that adds `Authorization: Bearer <token>` to every request and forwards it
 * to `mcp --http` unchanged otherwise (method, path, headers, `Host` and `Origin` included,
 * body and SSE streams both ways), for clients that cannot send a header, such as the
 * conformance suite. `node:http` sends the `Host` a request came with (`fetch` would replace a
 * foreign one), so the upstream's DNS-rebinding check sees what the client sent: the proxy's
 * own `127.0.0.1:PORT` is rewritten to the upstream's, a foreign one is kept.
 */

import http from "node:http";

const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "content-length"];

/** A running proxy. */
export interface AuthProxy {
  /** The proxy's `/mcp` URL. */
  readonly url: string;
  /** Stop listening. */
  close(): Promise<void>;
}

/** Start a proxy in front of `upstream` (an `http://127.0.0.1:PORT/mcp` URL). */
export function startAuthProxy(upstream: string, token: string): Promise<AuthProxy> {
  const target = new URL(upstream);
  return new Promise((resolve) => {
    let own = "";
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      onListen: ({ port }) => {
        own = `127.0.0.1:${port}`;
        resolve({ url: `http://${own}/mcp`, close: () => server.shutdown() });
      },
    }, async (request) => {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => headers[name] = value);
      const mapped = (value: string) => value.replace(own, target.host);
      headers["host"] = mapped(headers["host"] ?? own);
      if (headers["origin"] !== undefined) headers["origin"] = mapped(headers["origin"]);
      headers["authorization"] = `Bearer ${token}`;
      const body = request.body === null ? null : new Uint8Array(await request.arrayBuffer());
      return await new Promise<Response>((answer, fail) => {
        const forward = http.request({
          host: target.hostname,
          port: Number(target.port),
          path: new URL(request.url).pathname + new URL(request.url).search,
          method: request.method,
          headers,
        }, (response) => {
          const out = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value === undefined || HOP_BY_HOP.includes(name)) continue;
            out.set(name, Array.isArray(value) ? value.join(", ") : value);
          }
          const status = response.statusCode ?? 502;
          if (status === 204 || status === 205 || status === 304) {
            response.resume();
            answer(new Response(null, { status, headers: out }));
            return;
          }
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              response.on("data", (chunk: Uint8Array) => controller.enqueue(new Uint8Array(chunk)));
              response.on("end", () => controller.close());
              response.on("error", (error: Error) => controller.error(error));
            },
            cancel() {
              response.destroy();
            },
          });
          answer(new Response(stream, { status, headers: out }));
        });
        forward.on("error", fail);
        if (body !== null) forward.write(body);
        forward.end();
      });
    });
  });
}
