/**
 * The inspector's HTTP server (the runtime's `serveLoopback`, on 127.0.0.1): the page, a JSON
 * API and one Server-Sent Events stream. Every request passes the gate of
 * `security.ts` first (token, Host, Origin; `POST /api/sign-in` must also
 * carry an `Origin`, as a page's `fetch` does). No endpoint runs a command the
 * request names: tools come from the tool directories and turns go to the
 * backend fixed at start.
 *
 * | method and path            | what                                                   |
 * | -------------------------- | ------------------------------------------------------ |
 * | `GET /`                    | the page                                               |
 * | `GET /api/tools`           | the tool set ({@link ToolSetView})                     |
 * | `POST /api/call`           | `{name, arguments, timeout_ms?}` → the `call --json` record |
 * | `POST /api/turn`           | `{prompt, session_id?}` → `{turn}` (409 while one runs) |
 * | `POST /api/cancel`         | cancel the running turn (`turn.cancel`)                |
 * | `POST /api/approval`       | `{approval_id, allow}`                                 |
 * | `GET /api/sessions`        | the backend's sessions                                 |
 * | `GET /api/history?session=`| one session's history                                  |
 * | `POST /api/sign-in`        | `{server}` → `{status, authorization_url?}` (`sign_in.ts`) |
 * | `GET /api/events`          | SSE: `tools`, `turn`, `record`, `approval`, `log`      |
 *
 * @module
 */

import { callRecord } from "../run/call_record.ts";
import { directCall } from "../call/direct_call.ts";
import { isHostError } from "../errors/mod.ts";
import {
  CLIENT_TOOL_MIN_TIMEOUT_MS,
  CLIENT_TOOLS_LIMITS,
  PROMPT_BYTES,
} from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { type LoopbackServer, serveLoopback } from "../runtime/mod.ts";
import { checkRequest } from "./security.ts";
import { pageHtml } from "./page.ts";
import { listSessions, sessionHistory } from "./sessions.ts";
import type { ToolSet } from "./tool_set.ts";
import type { Turns } from "./turns.ts";
import { SignInRefusal, type SignIns } from "./sign_in.ts";
import type { AgentCommand } from "../run/agent.ts";

/** What the server serves. */
export interface ServerOptions {
  /** Port (0: a free one). */
  readonly port: number;
  /** The session token. */
  readonly token: string;
  /** The tool set. */
  readonly tools: ToolSet;
  /** The turns. */
  readonly turns: Turns;
  /** The sign-ins the page can start (none: `POST /api/sign-in` answers 404). */
  readonly signIns?: SignIns;
  /** The backend (for sessions and history). */
  readonly agent: AgentCommand;
  /** Working directory of the backend. */
  readonly cwd: string;
  /** Label of the backend shown in the page. */
  readonly agentLabel: string;
}

/** Largest JSON request body, bytes (arguments are bounded far below). */
const BODY_BYTES = 256 * 1024;

const SECURITY_HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
};

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" },
  });
}

function problem(status: number, error: string): Response {
  return json({ error }, status);
}

async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/json")) throw new RangeError("Expected application/json");
  const text = await request.text();
  if (text.length > BODY_BYTES) throw new RangeError(`Request body over ${BODY_BYTES} bytes`);
  const value = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RangeError("Request body must be a JSON object");
  }
  return value;
}

/** A running inspector server. */
export class InspectServer {
  readonly #options: ServerOptions;
  readonly #server: LoopbackServer;
  readonly #streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  readonly #nonce = crypto.randomUUID().replaceAll("-", "");
  readonly #port: number;
  /** Output of calls made through `/api/call`, by call ID. */
  readonly #logs = new Map<string, string[]>();
  #eventId = 0;
  #keepAlive: ReturnType<typeof setInterval>;

  /** Start serving on 127.0.0.1 (throws an error `isAddrInUse` knows when the port is taken). */
  constructor(options: ServerOptions) {
    this.#options = options;
    this.#server = serveLoopback((request) => this.#handle(request), options.port);
    this.#port = Number(new URL(this.#server.url).port);
    this.#keepAlive = setInterval(() => this.#send(": keep-alive\n\n"), 15_000);
  }

  /** The page's URL, with the token. */
  get url(): string {
    return `http://127.0.0.1:${this.#port}/?token=${this.#options.token}`;
  }

  /** The bound port. */
  get port(): number {
    return this.#port;
  }

  /** Send one event to every open page. */
  broadcast(event: string, data: unknown): void {
    this.#send(`id: ${++this.#eventId}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  #send(text: string): void {
    const bytes = new TextEncoder().encode(text);
    for (const stream of this.#streams) {
      try {
        stream.enqueue(bytes);
      } catch {
        this.#streams.delete(stream);
      }
    }
  }

  /** Close the event streams and stop serving. */
  async close(): Promise<void> {
    clearInterval(this.#keepAlive);
    for (const stream of this.#streams) {
      try {
        stream.close();
      } catch {
        // Already closed.
      }
    }
    this.#streams.clear();
    await this.#server.stop();
  }

  async #handle(request: Request): Promise<Response> {
    const refusal = checkRequest(request, { token: this.#options.token, port: this.#port });
    if (refusal !== null) {
      return new Response(refusal.reason + "\n", {
        status: refusal.status,
        headers: { ...SECURITY_HEADERS, "content-type": "text/plain; charset=utf-8" },
      });
    }
    const url = new URL(request.url);
    const route = `${request.method} ${url.pathname}`;
    try {
      switch (route) {
        case "GET /":
          return new Response(pageHtml(this.#nonce, this.#options.agentLabel), {
            headers: {
              ...SECURITY_HEADERS,
              "content-type": "text/html; charset=utf-8",
              "content-security-policy":
                `default-src 'none'; script-src 'nonce-${this.#nonce}'; style-src 'nonce-${this.#nonce}'; connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
            },
          });
        case "GET /api/tools":
          return json(this.#options.tools.view());
        case "POST /api/call":
          return await this.#call(await readBody(request));
        case "POST /api/turn": {
          const body = await readBody(request);
          const prompt = body.prompt;
          if (typeof prompt !== "string" || prompt.trim() === "") {
            return problem(400, "prompt must be a non-blank string");
          }
          if (utf8ByteLength(prompt) > PROMPT_BYTES) {
            return problem(400, `The prompt exceeds ${PROMPT_BYTES} UTF-8 bytes`);
          }
          const session = body.session_id;
          if (session !== undefined && session !== null && typeof session !== "string") {
            return problem(400, "session_id must be a string");
          }
          const turn = this.#options.turns.start(prompt, session || null);
          if (turn === null) return problem(409, "A turn is already running");
          return json({ turn });
        }
        case "POST /api/cancel":
          return json({ cancelled: this.#options.turns.cancel() });
        case "POST /api/approval": {
          const body = await readBody(request);
          if (typeof body.approval_id !== "string" || typeof body.allow !== "boolean") {
            return problem(400, "approval_id (string) and allow (boolean) are required");
          }
          const answered = this.#options.turns.answer(body.approval_id, body.allow);
          return answered ? json({ answered }) : problem(404, "No such approval is waiting");
        }
        case "GET /api/sessions":
          return json(await listSessions(this.#options.agent, this.#options.cwd));
        case "GET /api/history": {
          const session = url.searchParams.get("session");
          if (session === null || session === "") return problem(400, "session is required");
          return json(await sessionHistory(this.#options.agent, this.#options.cwd, session));
        }
        case "GET /api/events":
          return this.#events();
        case "POST /api/sign-in":
          return await this.#signIn(request);
        default:
          return problem(404, `No such endpoint: ${route}`);
      }
    } catch (error) {
      if (error instanceof SyntaxError || error instanceof RangeError) {
        return problem(400, error.message);
      }
      return problem(502, error instanceof Error ? error.message : String(error));
    }
  }

  async #call(body: Record<string, unknown>): Promise<Response> {
    const current = this.#options.tools.current;
    if (current === null) return problem(409, "No valid tool set is loaded");
    if (typeof body.name !== "string") return problem(400, "name must be a string");
    const timeout = body.timeout_ms;
    if (
      timeout !== undefined && timeout !== null &&
      (typeof timeout !== "number" || !Number.isInteger(timeout) ||
        timeout < CLIENT_TOOL_MIN_TIMEOUT_MS || timeout > CLIENT_TOOLS_LIMITS.max_timeout_ms)
    ) {
      return problem(
        400,
        `timeout_ms must be an integer from ${CLIENT_TOOL_MIN_TIMEOUT_MS} to ${CLIENT_TOOLS_LIMITS.max_timeout_ms}`,
      );
    }
    const callId = `call-${crypto.randomUUID()}`;
    const logs = this.#logs;
    logs.set(callId, []);
    try {
      const result = await directCall(
        current.executor,
        current.registry,
        body.name,
        body.arguments,
        {
          callId,
          ...(typeof timeout === "number" ? { timeoutMs: timeout } : {}),
        },
      );
      const log = logs.get(callId) ?? [];
      return json(callRecord(result, log.length === 0 ? null : log.join("")));
    } catch (error) {
      if (isHostError(error, "usage")) return problem(400, error.message);
      throw error;
    } finally {
      logs.delete(callId);
    }
  }

  /**
   * Start (or join) a sign-in. Besides the gate's checks the request must name its `Origin`
   * (the gate refused any other than the inspector's): a browser's `fetch` POST always does.
   */
  async #signIn(request: Request): Promise<Response> {
    if (request.headers.get("origin") === null) {
      return problem(403, "A sign-in must come from the inspector page (no Origin)");
    }
    const body = await readBody(request);
    if (typeof body.server !== "string") return problem(400, "server must be a string");
    const signIns = this.#options.signIns;
    if (signIns === undefined) return problem(404, `No sign-in for ${body.server}`);
    try {
      return json(await signIns.start(body.server));
    } catch (error) {
      if (error instanceof SignInRefusal) return problem(error.status, error.message);
      return problem(502, error instanceof Error ? error.message : String(error));
    }
  }

  /** Keep a process-isolated call's output for its `/api/call` answer. */
  log(callId: string, text: string): void {
    this.#logs.get(callId)?.push(text);
  }

  #events(): Response {
    let controller: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
        this.#streams.add(c);
        c.enqueue(
          new TextEncoder().encode(
            `retry: 1000\nevent: tools\ndata: ${JSON.stringify(this.#options.tools.view())}\n\n`,
          ),
        );
      },
      cancel: () => {
        this.#streams.delete(controller);
      },
    });
    return new Response(body, {
      headers: {
        ...SECURITY_HEADERS,
        "content-type": "text/event-stream; charset=utf-8",
        "connection": "keep-alive",
      },
    });
  }
}
