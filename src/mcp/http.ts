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
 * Sessions are kept by {@link HttpSessions} (`http_sessions.ts`): at most `maxSessions`, idle
 * ones expire and make room first, and when every session is in use a new `initialize` is
 * answered 503 with `Retry-After` instead of cutting a client off.
 *
 * A request whose requester is gone is cancelled: when the client drops the connection of a
 * POST before its answer (the response stream is cancelled), every request that POST carried is
 * cancelled as if the client had sent `notifications/cancelled`, so an abandoned call stops and
 * frees its call slot. Ending a session (`DELETE`, expiry, eviction, shutdown) cancels its calls.
 *
 * @module
 */

import {
  type JSONRPCMessage,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from "./_sdk.ts";
import { listenLoopback, type LoopbackServer } from "../runtime/mod.ts";
import { bearerToken, sameToken } from "../security/token.ts";
import { type HttpSession, HttpSessions } from "./http_sessions.ts";
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_SECONDS } from "./serve_api.ts";

/** `Retry-After` of the 503 answered when every session is in use, seconds. */
export const FULL_RETRY_AFTER_SECONDS = 5;

/** Options of {@link serveMcpHttp}. */
export interface McpHttpOptions {
  /** Port on 127.0.0.1 (0: any free one). */
  readonly port: number;
  /** The bearer token every request must carry. */
  readonly token: string;
  /** A fresh, unconnected server for a new session. */
  readonly createServer: () => Server;
  /** At most this many sessions; default {@link DEFAULT_MAX_SESSIONS}. */
  readonly maxSessions?: number;
  /** Close a session idle this long, ms (0: never); default {@link DEFAULT_SESSION_IDLE_SECONDS}. */
  readonly sessionIdleMs?: number;
  /** Called when a session is closed for being idle. */
  readonly onSessionExpired?: (id: string) => void;
}

/** A running `mcp --http`. */
export interface McpHttpServer {
  /** The endpoint, `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** Close every session and stop listening. */
  close(): Promise<void>;
}

/** The header that tells the session which POST a message came in (set here, never trusted from the client). */
const POST_HEADER = "x-magi-tools-post";

type RequestId = string | number;
type Transport = WebStandardStreamableHTTPServerTransport;
// The SDK's callback types reach this checker untyped: the fields used, named.
type Deliver = (
  message: JSONRPCMessage,
  extra?: { readonly requestInfo?: { readonly headers: Record<string, unknown> } },
) => void;

/** The `Host` values accepted for `port`. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** Serve MCP over Streamable HTTP; rejects when the port is taken. */
export async function serveMcpHttp(options: McpHttpOptions): Promise<McpHttpServer> {
  const endpoint = new McpEndpoint(options);
  const listening: LoopbackServer = await listenLoopback(
    (request) => endpoint.handle(request),
    options.port,
  );
  endpoint.listeningOn(Number(new URL(listening.url).port));
  return {
    url: `${listening.url}/mcp`,
    close: async () => {
      await endpoint.sessions.closeAll();
      await listening.stop();
    },
  };
}

/** The `/mcp` endpoint: the checks every request passes, its sessions and their open POSTs. */
class McpEndpoint {
  readonly sessions: HttpSessions;
  readonly #options: McpHttpOptions;
  readonly #max: number;
  /** The JSON-RPC requests each open POST carried, by its {@link POST_HEADER} value. */
  readonly #posts = new Map<
    string,
    { readonly transport: Transport; readonly ids: RequestId[] }
  >();
  /** Each session's own message handler (the SDK server's), for the cancels sent for it. */
  readonly #delivers = new WeakMap<Transport, Deliver>();
  #nextPost = 0;
  /** Empty until the port is known: every request is refused until then. */
  #hosts: string[] = [];
  #origins: string[] = [];

  constructor(options: McpHttpOptions) {
    this.#options = options;
    this.#max = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.sessions = new HttpSessions({
      max: this.#max,
      idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_SECONDS * 1000,
      ...(options.onSessionExpired === undefined ? {} : { onExpired: options.onSessionExpired }),
    });
  }

  /** Accept the `Host` and `Origin` values of `port` from now on. */
  listeningOn(port: number): void {
    this.#hosts = allowedHosts(port);
    this.#origins = this.#hosts.map((value) => `http://${value}`);
  }

  /** Answer one HTTP request. */
  async handle(request: Request): Promise<Response> {
    const refused = this.#refusal(request);
    if (refused !== undefined) return refused;
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.sessions.get(id);
      if (session === undefined) return jsonError(404, "Session not found");
      return await this.#sessionRequest(session, request);
    }
    if (request.method !== "POST") return jsonError(400, "Bad request: no session ID");
    if (!this.sessions.reserve()) {
      return jsonError(
        503,
        `Server busy: all ${this.#max} MCP sessions are in use (--max-sessions); retry later`,
        { "retry-after": String(FULL_RETRY_AFTER_SECONDS) },
      );
    }
    try {
      return await this.#initialize(request);
    } finally {
      this.sessions.opened();
    }
  }

  /** The answer to a request with a foreign `Host` or `Origin`, no or a wrong token, another path. */
  #refusal(request: Request): Response | undefined {
    const host = request.headers.get("host") ?? "";
    const origin = request.headers.get("origin");
    if (!this.#hosts.includes(host) || (origin !== null && !this.#origins.includes(origin))) {
      return jsonError(
        403,
        `Forbidden: invalid ${this.#hosts.includes(host) ? "Origin" : "Host"} header`,
      );
    }
    const token = bearerToken(request.headers);
    if (token === undefined || !sameToken(token, this.#options.token)) {
      return jsonError(
        401,
        `Unauthorized: ${token === undefined ? "no" : "wrong"} bearer token (Authorization header)`,
        { "www-authenticate": 'Bearer realm="magi-tools mcp"' },
      );
    }
    if (new URL(request.url).pathname !== "/mcp") return jsonError(404, "Not found: use /mcp");
    return undefined;
  }

  // A request of an open session: live until its answer or stream ends; when the client drops
  // it first, the requests it carried are cancelled as if the client had said so.
  async #sessionRequest(session: HttpSession, request: Request): Promise<Response> {
    const posts = this.#posts;
    const post = String(++this.#nextPost);
    const headers = new Headers(request.headers);
    headers.set(POST_HEADER, post);
    posts.set(post, { transport: session.transport, ids: [] });
    const ended = this.sessions.enter(session.id);
    let response: Response;
    try {
      response = await session.transport.handleRequest(new Request(request, { headers }));
    } catch (error) {
      posts.delete(post);
      ended();
      throw error;
    }
    return watchBody(response, (dropped) => {
      const requests = posts.get(post)?.ids ?? [];
      posts.delete(post);
      ended();
      if (!dropped) return;
      for (const requestId of requests) {
        this.#delivers.get(session.transport)?.({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId, reason: "The client dropped the connection" },
        });
      }
    });
  }

  // A new session: the transport accepts only an initialize request here.
  async #initialize(request: Request): Promise<Response> {
    const sessions = this.sessions;
    const server = this.#options.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts: this.#hosts,
      allowedOrigins: this.#origins,
      onsessioninitialized: (sessionId: string) => {
        sessions.add({ id: sessionId, transport, server });
      },
      onsessionclosed: (sessionId: string) => void sessions.close(sessionId),
    });
    await server.connect(transport);
    // Note which POST each request came in, to cancel it when that POST's client is gone.
    const deliver = transport.onmessage as Deliver;
    const noted: Deliver = (message, extra) => {
      const post = extra?.requestInfo?.headers[POST_HEADER];
      const requestId = idOfRequest(message);
      const open = typeof post === "string" ? this.#posts.get(post) : undefined;
      // Only a POST of this session (a client cannot name another session's POST).
      if (open !== undefined && open.transport === transport && requestId !== undefined) {
        open.ids.push(requestId);
      }
      deliver(message, extra);
    };
    transport.onmessage = noted;
    this.#delivers.set(transport, deliver);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined) await server.close().catch(() => {});
    return response;
  }
}

/** The id of a JSON-RPC request (not a notification or response), else undefined. */
function idOfRequest(message: JSONRPCMessage): RequestId | undefined {
  return "method" in message && "id" in message ? message.id : undefined;
}

/**
 * `response` with a body that reports its end once: `onEnd(true)` when the client stopped
 * reading it (the connection dropped), `onEnd(false)` when it ended otherwise.
 */
function watchBody(response: Response, onEnd: (dropped: boolean) => void): Response {
  const inner = response.body;
  if (inner === null) {
    onEnd(false);
    return response;
  }
  let ended = false;
  const end = (dropped: boolean) => {
    if (ended) return;
    ended = true;
    onEnd(dropped);
  };
  const reader = inner.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          end(false);
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        end(false);
      }
    },
    cancel(reason) {
      end(true);
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
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
