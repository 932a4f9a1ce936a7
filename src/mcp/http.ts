/**
 * `magi-tools mcp --http PORT`: Streamable HTTP at
 * `http://127.0.0.1:PORT/mcp`, one MCP session (and SDK `Server`) per
 * `initialize`, all sharing one executor. DNS-rebinding protection is on:
 * a request whose `Host` is not `127.0.0.1:PORT`, `localhost:PORT` or
 * `[::1]:PORT`, or whose `Origin` (when sent) is not `http://` one of
 * those, is answered 403 before anything else (checked here and again by
 * the SDK transport). Then every request must carry the server's bearer
 * token (`Authorization: Bearer <token>`): without it, or with another one,
 * the answer is 401 with `WWW-Authenticate: Bearer` and nothing else happens
 * (no session is created, no message reaches a server). Listens on the
 * loopback interface only.
 *
 * @module
 */

import { type Server, WebStandardStreamableHTTPServerTransport } from "./_sdk.ts";
import { listenLoopback, type LoopbackServer } from "../runtime/mod.ts";
import { bearerToken, sameToken } from "../security/token.ts";

/** At most this many MCP sessions are open at once (oldest closed first). */
export const MAX_HTTP_SESSIONS = 64;

/** Options of {@link serveMcpHttp}. */
export interface McpHttpOptions {
  /** Port on 127.0.0.1 (0: any free one). */
  readonly port: number;
  /** The bearer token every request must carry. */
  readonly token: string;
  /** A fresh, unconnected server for a new session. */
  readonly createServer: () => Server;
}

/** A running `mcp --http`. */
export interface McpHttpServer {
  /** The endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Close every session and stop listening. */
  close(): Promise<void>;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
}

/** The `Host` values accepted for `port`. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** Serve MCP over Streamable HTTP; rejects when the port is taken. */
export async function serveMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const sessions = new Map<string, Session>();
  let hosts: string[] = [];
  let origins: string[] = [];

  const closeSession = async (id: string) => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    await session.server.close().catch(() => {});
  };

  const handler = async (request: Request): Promise<Response> => {
    const host = request.headers.get("host") ?? "";
    const origin = request.headers.get("origin");
    if (!hosts.includes(host) || (origin !== null && !origins.includes(origin))) {
      return jsonError(
        403,
        `Forbidden: invalid ${hosts.includes(host) ? "Origin" : "Host"} header`,
      );
    }
    const token = bearerToken(request.headers);
    if (token === undefined || !sameToken(token, options.token)) {
      return jsonError(
        401,
        `Unauthorized: ${token === undefined ? "no" : "wrong"} bearer token (Authorization header)`,
        { "www-authenticate": 'Bearer realm="magi-tools mcp"' },
      );
    }
    if (new URL(request.url).pathname !== "/mcp") return jsonError(404, "Not found: use /mcp");
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = sessions.get(id);
      if (session === undefined) return jsonError(404, "Session not found");
      return await session.transport.handleRequest(request);
    }
    if (request.method !== "POST") return jsonError(400, "Bad request: no session ID");
    // A new session: the transport accepts only an initialize request here.
    const server = options.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: hosts,
      allowedOrigins: origins,
      onsessioninitialized: (sessionId: string) => {
        sessions.set(sessionId, { transport, server });
        if (sessions.size > MAX_HTTP_SESSIONS) {
          void closeSession(sessions.keys().next().value!);
        }
      },
      onsessionclosed: (sessionId: string) => void closeSession(sessionId),
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined) await server.close().catch(() => {});
    return response;
  };

  const listening: LoopbackServer = await listenLoopback(handler, options.port);
  const port = Number(new URL(listening.url).port);
  hosts = allowedHosts(port);
  origins = hosts.map((value) => `http://${value}`);
  return {
    url: `${listening.url}/mcp`,
    close: async () => {
      await Promise.all([...sessions.keys()].map(closeSession));
      await listening.stop();
    },
  };
}

function jsonError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }),
    { status, headers: { "content-type": "application/json", ...headers } },
  );
}
