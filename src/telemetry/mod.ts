/**
 * OpenTelemetry traces and metrics of turns, tool calls, approval waits and upstream
 * (OpenAPI, MCP) requests, exported by Deno's built-in OTLP exporter (`OTEL_DENO=true`,
 * docs/telemetry.md).
 *
 * The providers are the ones `npm:@opentelemetry/api` itself delegates to: the API's global
 * registry (`Symbol.for("opentelemetry.js.api.1")`), which Deno installs when `OTEL_DENO=true`
 * (and an OpenTelemetry SDK registers elsewhere). So no package is imported or downloaded, and
 * with telemetry off the only cost is one check of {@link TELEMETRY} per hook: no span objects,
 * no attribute objects, no environment read (the demo runs without `--allow-env=OTEL_DENO`).
 *
 * Parents travel as W3C `traceparent` strings (`00-<trace id>-<span id>-<flags>`), the form
 * they take between processes too: tool calls of a `run` turn find the turn's through
 * {@link runParent}; the `mcp` front door hands the executor the caller's `_meta.traceparent`.
 *
 * @module
 */

/** An attribute value: never a tool's arguments or result. */
export type AttributeValue = string | number | boolean;

/** The attributes of a span or a measurement. */
export type Attributes = Record<string, AttributeValue>;

/** OpenTelemetry's `SpanKind` values used here. */
export const SpanKind = { INTERNAL: 0, SERVER: 1, CLIENT: 2 } as const;

interface OtelSpanContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote?: boolean;
}
interface OtelSpan {
  spanContext(): OtelSpanContext;
  setAttribute(key: string, value: AttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}
interface OtelContext {
  setValue(key: symbol, value: unknown): OtelContext;
}
interface OtelTracer {
  startSpan(
    name: string,
    options: { kind: number; attributes: Attributes },
    context?: OtelContext,
  ): OtelSpan;
}
interface OtelCounter {
  add(value: number, attributes: Attributes): void;
}
interface OtelHistogram {
  record(value: number, attributes: Attributes): void;
}
interface OtelMeter {
  createCounter(name: string, options: { description: string; unit: string }): OtelCounter;
  createHistogram(name: string, options: { description: string; unit: string }): OtelHistogram;
}
/** The fields of the API's global registry that are used. */
interface OtelRegistry {
  readonly trace?: { getTracer(name: string, version?: string): OtelTracer };
  readonly context?: { active(): OtelContext };
  readonly metrics?: { getMeter(name: string, version?: string): OtelMeter };
}

const registry = (globalThis as Record<symbol, OtelRegistry | undefined>)[
  Symbol.for("opentelemetry.js.api.1")
];

/**
 * Whether telemetry is on: the OpenTelemetry API's global providers are installed
 * (`OTEL_DENO=true` under Deno). Computed once, when this module loads.
 */
export const TELEMETRY: boolean = typeof registry?.trace?.getTracer === "function" &&
  typeof registry.context?.active === "function";

/** The key under which the OpenTelemetry API keeps the current span in a context. */
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");
const SCOPE = "magi-tools";
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

let tracer: OtelTracer | undefined;
let instruments: { calls: OtelCounter; duration: OtelHistogram } | undefined;

/** A started span; {@link Span.end} once. */
export interface Span {
  /** This span as a W3C `traceparent`, for children in this or another process. */
  readonly traceparent: string;
  /** Set one attribute. */
  set(key: string, value: AttributeValue): void;
  /** Mark the span failed (status ERROR) with a short, argument-free message. */
  fail(message: string): void;
  /** End the span. */
  end(): void;
}

/** The span context of a W3C `traceparent`, or `null` when it is not one (all-zero IDs too). */
export function parseTraceparent(value: unknown): OtelSpanContext | null {
  if (typeof value !== "string") return null;
  const match = TRACEPARENT.exec(value.trim().toLowerCase());
  if (match === null) return null;
  const [, traceId = "", spanId = "", flags = "00"] = match;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return null;
  return { traceId, spanId, traceFlags: parseInt(flags, 16), isRemote: true };
}

function traceparentOf(span: OtelSpan): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

/**
 * Start a span named `name`, a child of `parent` (a `traceparent`; a root span without one).
 * `undefined` when telemetry is off: callers check {@link TELEMETRY} first, so they build
 * no attributes either.
 */
export function startSpan(
  name: string,
  parent: string | undefined,
  attributes: Attributes,
  kind: number = SpanKind.INTERNAL,
): Span | undefined {
  if (!TELEMETRY || registry?.trace === undefined || registry.context === undefined) {
    return undefined;
  }
  tracer ??= registry.trace.getTracer(SCOPE);
  const remote = parseTraceparent(parent);
  const context = remote === null ? undefined : registry.context.active().setValue(SPAN_KEY, {
    spanContext: () => remote,
    isRecording: () => false,
  });
  const span = tracer.startSpan(name, { kind, attributes }, context);
  return {
    traceparent: traceparentOf(span),
    set: (key, value) => void span.setAttribute(key, value),
    fail: (message) => void span.setStatus({ code: 2, message }),
    end: () => span.end(),
  };
}

const runParents = new Map<string, string>();

/** Make `span` the parent of run `runId`'s tool calls and approval waits until `end`. */
export function setRunParent(runId: string, span: Span): () => void {
  runParents.set(runId, span.traceparent);
  return () => void runParents.delete(runId);
}

/** The `traceparent` of run `runId`'s turn span, if one is open. */
export function runParent(runId: string): string | undefined {
  return runParents.get(runId);
}

/**
 * Count one finished tool call (`magi_tools.tool.calls`) and record its duration
 * (`magi_tools.tool.duration`, ms). No-op when telemetry is off.
 */
export function recordToolCall(durationMs: number, attributes: Attributes): void {
  if (!TELEMETRY || registry?.metrics === undefined) return;
  if (instruments === undefined) {
    const meter = registry.metrics.getMeter(SCOPE);
    instruments = {
      calls: meter.createCounter("magi_tools.tool.calls", {
        description: "Tool calls answered, by tool, source and outcome",
        unit: "{call}",
      }),
      duration: meter.createHistogram("magi_tools.tool.duration", {
        description: "Tool call duration, from arrival to answer",
        unit: "ms",
      }),
    };
  }
  instruments.calls.add(1, attributes);
  instruments.duration.record(durationMs, attributes);
}

/**
 * Start run `runId`'s turn span (`magi.turn`), the parent of its tool calls and approval
 * waits until it ends.
 */
export function startTurnSpan(sessionId: string, runId: string): Span | undefined {
  const span = startSpan("magi.turn", undefined, {
    "magi.session.id": sessionId,
    "magi.run.id": runId,
  });
  if (span === undefined) return undefined;
  runParents.set(runId, span.traceparent);
  return { ...span, end: () => (runParents.delete(runId), span.end()) };
}

/** `value` when it is a valid W3C `traceparent` (e.g. an MCP request's `_meta.traceparent`). */
export function incomingTraceparent(value: unknown): string | undefined {
  return parseTraceparent(value) === null ? undefined : (value as string).trim().toLowerCase();
}

/** Start an approval wait's span (`magi.approval`) for tool `tool`. */
export function startApprovalSpan(parent: string | undefined, tool: string): Span | undefined {
  return startSpan("magi.approval", parent, { "gen_ai.tool.name": tool });
}

/** End an approval wait's span: refused (`deny`), `null` (`allow`) or `undefined` (failed). */
export function endApprovalSpan(span: Span, refused: unknown): void {
  if (refused === undefined) span.fail("the approval failed");
  else span.set("magi.approval.decision", refused === null ? "allow" : "deny");
  span.end();
}

/**
 * Start an OpenAPI request's client span (`HTTP <METHOD>`): method, server address and port;
 * never the path or query (they carry arguments).
 */
export function startHttpSpan(
  exchange: { readonly method: string; readonly url: string },
  parent: string | undefined,
): Span | undefined {
  let url: URL | null = null;
  try {
    url = new URL(exchange.url);
  } catch {
    // Not a URL: the request fails on its own; the span just has no address.
  }
  return startSpan(`HTTP ${exchange.method}`, parent, {
    "http.request.method": exchange.method,
    ...(url === null ? {} : {
      "server.address": url.hostname,
      "server.port": Number(url.port || (url.protocol === "https:" ? 443 : 80)),
    }),
  }, SpanKind.CLIENT);
}

/** End an OpenAPI request's span: `ok`, or the error code it ended with. */
export function endHttpSpan(
  span: Span,
  outcome: { readonly ok: boolean; readonly code?: string } | undefined,
): void {
  if (outcome === undefined) span.fail("the request failed");
  else if (!outcome.ok) {
    span.set("error.type", outcome.code ?? "error");
    span.fail(outcome.code ?? "error");
  }
  span.end();
}

/** Start an MCP server request's client span (`tools/call <tool>`). */
export function startMcpSpan(
  server: string,
  tool: string,
  parent: string | undefined,
): Span | undefined {
  return startSpan(`tools/call ${tool}`, parent, {
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": tool,
    "magi.mcp.server": server,
  }, SpanKind.CLIENT);
}

/** End an MCP request's span; `ok` false when it threw (the tool's error code is the call's). */
export function endMcpSpan(span: Span, ok: boolean): void {
  if (!ok) span.fail("the MCP request failed");
  span.end();
}

/** End a `run` approval wait's span with how it was decided (`undefined`: it failed). */
export function endDecisionSpan(
  span: Span,
  decision: { readonly decision: string; readonly decidedBy: string } | undefined,
): void {
  if (decision === undefined) span.fail("the approval failed");
  else {
    span.set("magi.approval.decision", decision.decision);
    span.set("magi.approval.decided_by", decision.decidedBy);
  }
  span.end();
}
