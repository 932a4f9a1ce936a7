/**
 * A scripted mock model on 127.0.0.1 and a refusing HTTP proxy beside it.
 *
 * The model answers the agent's main requests (those that list the fixture tools) from a script:
 * step k (k = how many scripted calls already have a result in the request's history) answers
 * with the k-th tool call, and after the last one with the final text. Requests without the
 * fixture tools (titles, classifiers, quota probes) get a short text. Every request is recorded.
 *
 * The proxy (the agents' `HTTP(S)_PROXY`) answers every request with 403 and records its target:
 * whatever the agent tries to reach besides the mock is listed, never reached.
 *
 * @module
 */

import { type Answer, answerResponse, type ApiShape } from "./_shapes.ts";

/** One scripted tool call: a fixture tool (its name as the server lists it) and its arguments. */
export interface Step {
  tool: string;
  args: Record<string, unknown>;
}

/** A request the mock model received. */
export interface ModelRequest {
  method: string;
  path: string;
  body: unknown;
  /** The fixture tools it listed: their names as the agent shows them, with their schemas. */
  tools: ListedTool[];
  /** The scripted steps whose result it carries, by step index (the result object's JSON). */
  results: Map<number, string>;
}

/** A tool as the agent lists it to the model. */
export interface ListedTool {
  name: string;
  schema: unknown;
  /** The Responses API namespace it is listed in (Codex: `mcp__<server>`). */
  namespace?: string;
}

const SCHEMA_KEYS = [
  "parameters",
  "input_schema",
  "inputSchema",
  "parametersJsonSchema",
];
const RESULT_ID_KEYS = ["call_id", "tool_use_id", "tool_call_id", "id"];

/** Options of {@link MockModel}. */
export interface MockOptions {
  shape: ApiShape;
  steps: readonly Step[];
  finalText: string;
  /** Names of the fixture tools: a request listing one of them is a main request. */
  fixtureTools: readonly string[];
}

/** The mock model and proxy; {@link MockModel.close} stops both. */
export class MockModel {
  readonly requests: ModelRequest[] = [];
  /** `METHOD target` of each request the proxy refused. */
  readonly refused: string[] = [];
  /** `METHOD path` of requests to the model port that no API shape handles (answered 404). */
  readonly unknown: string[] = [];
  readonly #options: MockOptions;
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #proxy: Deno.TcpListener;
  readonly #proxyConns = new Set<Deno.Conn>();
  readonly #proxyDone: Promise<void>;

  constructor(options: MockOptions) {
    this.#options = options;
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (request) => this.#handle(request),
    );
    this.#proxy = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    this.#proxyDone = this.#acceptProxy();
  }

  /** `http://127.0.0.1:PORT` of the model. */
  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** `http://127.0.0.1:PORT` of the refusing proxy. */
  get proxyUrl(): string {
    return `http://127.0.0.1:${(this.#proxy.addr as Deno.NetAddr).port}`;
  }

  /** The main requests (those listing the fixture tools), in order. */
  get mainRequests(): ModelRequest[] {
    return this.requests.filter((r) => r.tools.length > 0);
  }

  /** The first main request that carries the result of step `index`. */
  resultOf(index: number): string | undefined {
    return this.mainRequests.find((r) => r.results.has(index))?.results.get(
      index,
    );
  }

  /** The call id of step `index` in this shape. */
  callId(index: number): string {
    return `${this.#options.shape === "anthropic" ? "toolu" : "call"}_magi_${index}`;
  }

  async close(): Promise<void> {
    await this.#server.shutdown();
    this.#proxy.close();
    for (const conn of this.#proxyConns) conn.close();
    await this.#proxyDone;
  }

  async #handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const route = routeOf(this.#options.shape, request.method, url.pathname);
    const raw = await request.text();
    let body: unknown = raw;
    try {
      body = raw === "" ? null : JSON.parse(raw);
    } catch { /* kept as text */ }
    if (route === null) {
      this.unknown.push(`${request.method} ${url.pathname}`);
      this.requests.push({
        method: request.method,
        path: url.pathname,
        body,
        tools: [],
        results: new Map(),
      });
      return new Response("not served by the mock model", { status: 404 });
    }
    const tools = listedTools(body, this.#options.fixtureTools);
    const results = this.#resultsIn(body);
    this.requests.push({
      method: request.method,
      path: url.pathname,
      body,
      tools,
      results,
    });
    if (route === "count") {
      return Response.json({ totalTokens: 10, input_tokens: 10 });
    }
    const stream = route === "stream" ||
      (isRecord(body) && body.stream === true);
    return answerResponse(
      this.#options.shape,
      this.#answer(body, tools, results),
      stream,
    );
  }

  #answer(body: unknown, tools: ListedTool[], results: Map<number, string>): Answer {
    if (tools.length === 0) return { kind: "text", text: auxText(body) };
    const step = results.size;
    const next = this.#options.steps[step];
    if (next === undefined) {
      return { kind: "text", text: this.#options.finalText };
    }
    const listed = tools.find((t) => endsWithTool(t.name, next.tool));
    // A tool the agent does not list: ask for it by its bare name, so the agent's own
    // "unknown tool" answer is what the test sees.
    return {
      kind: "tool",
      id: this.callId(step),
      name: listed?.name ?? next.tool,
      args: next.args,
      ...(listed?.namespace === undefined ? {} : { namespace: listed.namespace }),
    };
  }

  #resultsIn(body: unknown): Map<number, string> {
    const found = new Map<number, string>();
    walk(body, (node) => {
      // A call's result names its call id; the call itself (the model's earlier answer) is told
      // apart by carrying the arguments.
      if ("arguments" in node || "args" in node || "input" in node) return;
      const response = isRecord(node.functionResponse) ? node.functionResponse : null;
      const holder = response ?? node;
      for (const key of RESULT_ID_KEYS) {
        const id = holder[key];
        if (typeof id !== "string") continue;
        const match = /_magi_(\d+)$/.exec(id);
        if (match === null) continue;
        if (key === "id" && response === null && node.role !== "tool") continue;
        found.set(Number(match[1]), JSON.stringify(node));
      }
    });
    return found;
  }

  async #acceptProxy(): Promise<void> {
    for (;;) {
      let conn: Deno.Conn;
      try {
        conn = await this.#proxy.accept();
      } catch {
        return;
      }
      this.#proxyConns.add(conn);
      this.#refuse(conn).finally(() => this.#proxyConns.delete(conn));
    }
  }

  async #refuse(conn: Deno.Conn): Promise<void> {
    const buffer = new Uint8Array(8192);
    let head = "";
    try {
      while (!head.includes("\r\n\r\n") && head.length < 65_536) {
        const n = await conn.read(buffer);
        if (n === null) break;
        head += new TextDecoder().decode(buffer.subarray(0, n));
      }
      const [method = "?", target = "?"] = (head.split("\r\n")[0] ?? "").split(
        " ",
      );
      this.refused.push(`${method} ${target}`);
      const text = "refused by the test proxy: the agent may reach only the mock model\n";
      await conn.write(
        new TextEncoder().encode(
          `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${text.length}\r\n` +
            `connection: close\r\n\r\n${text}`,
        ),
      );
    } catch {
      /* the agent hung up */
    } finally {
      try {
        conn.close();
      } catch { /* closed by close() */ }
    }
  }
}

/**
 * The answer to a request that is not the agent's main loop: "OK", or, when it asks for JSON
 * with a schema (Gemini CLI's model router and next-speaker check), the smallest value of it.
 */
function auxText(body: unknown): string {
  const config = isRecord(body) && isRecord(body.generationConfig) ? body.generationConfig : null;
  const schema = config?.responseJsonSchema ?? config?.responseSchema;
  return isRecord(schema) ? JSON.stringify(smallestValue(schema)) : "OK";
}

function smallestValue(schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (String(schema.type).toLowerCase()) {
    case "object": {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : Object.keys(properties);
      return Object.fromEntries(
        required.map((key) => {
          const property = properties[String(key)];
          return [String(key), isRecord(property) ? smallestValue(property) : null];
        }),
      );
    }
    case "array":
      return [];
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return false;
    default:
      return "ok";
  }
}

type Route = "stream" | "whole" | "count";

function routeOf(shape: ApiShape, method: string, path: string): Route | null {
  if (method !== "POST") return null;
  switch (shape) {
    case "responses":
      return path.endsWith("/responses") ? "stream" : null;
    case "anthropic":
      if (path.endsWith("/messages/count_tokens")) return "count";
      return path.endsWith("/messages") ? "whole" : null;
    case "gemini":
      if (path.endsWith(":streamGenerateContent")) return "stream";
      if (path.endsWith(":generateContent")) return "whole";
      return path.endsWith(":countTokens") ? "count" : null;
    case "chat":
      return path.endsWith("/chat/completions") ? "whole" : null;
  }
}

/** A listed tool name is the fixture tool's, prefixed by the agent (`mcp__magi__x`, `magi_x`). */
function endsWithTool(listed: string, tool: string): boolean {
  return listed === tool || listed.endsWith(`_${tool}`);
}

function listedTools(
  body: unknown,
  fixtureTools: readonly string[],
): ListedTool[] {
  const tools: ListedTool[] = [];
  const namespaceOf = new Map<unknown, string>();
  walk(body, (node) => {
    if (
      node.type === "namespace" && typeof node.name === "string" &&
      Array.isArray(node.tools)
    ) {
      for (const tool of node.tools) namespaceOf.set(tool, node.name);
    }
    if (typeof node.name !== "string") return;
    const name = node.name;
    const key = SCHEMA_KEYS.find((k) => isRecord(node[k]));
    if (key === undefined || !fixtureTools.some((t) => endsWithTool(name, t))) {
      return;
    }
    const namespace = namespaceOf.get(node);
    tools.push({
      name,
      schema: node[key],
      ...(namespace === undefined ? {} : { namespace }),
    });
  });
  return tools;
}

function walk(
  value: unknown,
  visit: (node: Record<string, unknown>) => void,
): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
  } else if (isRecord(value)) {
    visit(value);
    for (const item of Object.values(value)) walk(item, visit);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
