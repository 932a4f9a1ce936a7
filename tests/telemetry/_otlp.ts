/**
 * A loopback OTLP/HTTP receiver for tests: accepts `http/json` exports (Deno's built-in
 * exporter with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) on `/v1/traces` and `/v1/metrics` and
 * keeps the spans and metric names; and the environment that points a CLI child at it.
 */

/** One exported span, as OTLP/JSON has it (IDs hex), attributes flattened. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly status: { readonly code?: number; readonly message?: string };
  readonly attributes: Record<string, string | number | boolean>;
  readonly service: string;
}

/** One exported metric data point, attributes flattened. */
export interface ReceivedPoint {
  readonly metric: string;
  readonly kind: "sum" | "histogram" | "other";
  readonly attributes: Record<string, string | number | boolean>;
  readonly value: number;
}

/** The receiver. */
export interface OtlpReceiver {
  readonly spans: ReceivedSpan[];
  readonly points: ReceivedPoint[];
  /** The environment of a CLI child exporting to this receiver. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
};
type OtlpAttribute = { key: string; value: OtlpValue };

function flatten(
  attributes: OtlpAttribute[] | undefined,
): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes ?? []) {
    out[key] = value.stringValue ?? value.boolValue ??
      (value.intValue !== undefined ? Number(value.intValue) : value.doubleValue ?? NaN);
  }
  return out;
}

// deno-lint-ignore no-explicit-any
type Json = any;

function collectSpans(body: Json, into: ReceivedSpan[]): void {
  for (const resource of body.resourceSpans ?? []) {
    const service = String(flatten(resource.resource?.attributes)["service.name"] ?? "");
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        into.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? "",
          name: span.name,
          kind: span.kind,
          status: span.status ?? {},
          attributes: flatten(span.attributes),
          service,
        });
      }
    }
  }
}

function collectPoints(body: Json, into: ReceivedPoint[]): void {
  for (const resource of body.resourceMetrics ?? []) {
    for (const scope of resource.scopeMetrics ?? []) {
      for (const metric of scope.metrics ?? []) {
        const kind = metric.sum ? "sum" : metric.histogram ? "histogram" : "other";
        for (const point of (metric.sum ?? metric.histogram)?.dataPoints ?? []) {
          into.push({
            metric: metric.name,
            kind,
            attributes: flatten(point.attributes),
            value: Number(point.asDouble ?? point.asInt ?? point.count ?? NaN),
          });
        }
      }
    }
  }
}

/** Start a receiver on 127.0.0.1 (random port). */
export function startOtlpReceiver(): OtlpReceiver {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.headers.get("content-type")?.startsWith("application/json") !== true) {
      return new Response("json only", { status: 415 });
    }
    const body = await req.json();
    if (path === "/v1/traces") collectSpans(body, spans);
    else if (path === "/v1/metrics") collectPoints(body, points);
    return Response.json({});
  });
  return {
    spans,
    points,
    env: {
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${server.addr.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "magi-tools-test",
    },
    close: () => server.shutdown(),
  };
}
