/**
 * The tool-call span and metrics (`executor.ts` calls these only when `TELEMETRY` is
 * on). Attributes describe the call, never its arguments or result:
 * docs/telemetry.md lists them.
 *
 * @module
 */

import type { ToolCallRequest, ToolCallResult } from "../tool/call.ts";
import type { RegisteredTool } from "../toolset/registry.ts";
import {
  type Attributes,
  recordToolCall,
  runParent,
  type Span,
  startSpan,
} from "../telemetry/mod.ts";

/** Attributes a call span and its metrics share. */
function toolAttributes(call: ToolCallRequest, entry: RegisteredTool | undefined): Attributes {
  const source = entry?.source.kind ?? "unknown";
  const isolation = entry?.kind ?? "none";
  return {
    "gen_ai.tool.name": call.name,
    "magi.tool.source": source,
    "magi.tool.effect": entry?.definition.effect ?? "unknown",
    "magi.tool.isolation": isolation,
  };
}

const metricAttributes = new WeakMap<Span, Attributes>();

/** Start `call`'s span: a child of the caller's `traceparent`, else of its run's turn. */
export function startCallSpan(
  call: ToolCallRequest,
  entry: RegisteredTool | undefined,
): Span | undefined {
  const shared = toolAttributes(call, entry);
  const span = startSpan(`execute_tool ${call.name}`, call.traceparent ?? runParent(call.runId), {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.call.id": call.callId,
    "magi.session.id": call.sessionId,
    "magi.run.id": call.runId,
    ...(entry?.source.kind === "module" || entry === undefined
      ? {}
      : { "magi.tool.source.name": entry.source.name }),
    ...(call.approval === undefined ? {} : { "magi.approval.decision": call.approval }),
    ...shared,
  });
  if (span !== undefined) metricAttributes.set(span, shared);
  return span;
}

/** End `call`'s span with its outcome, and count it. */
export function endCallSpan(span: Span, call: ToolCallRequest, result: ToolCallResult): void {
  span.set("magi.tool.outcome", result.outcome);
  span.set("magi.tool.result_bytes", result.bytes);
  span.set("magi.tool.duration_ms", result.durationMs);
  if (result.errorCode !== undefined) {
    span.set("magi.tool.error_code", result.errorCode);
    span.set("error.type", result.errorCode);
  }
  if (result.abandoned) span.set("magi.tool.abandoned", true);
  if (result.killed) span.set("magi.tool.killed", true);
  if (result.outcome !== "success") span.fail(result.errorCode ?? result.outcome);
  span.end();
  const shared = metricAttributes.get(span) ?? { "gen_ai.tool.name": call.name };
  recordToolCall(result.durationMs, {
    ...shared,
    "magi.tool.outcome": result.outcome,
    ...(result.errorCode === undefined ? {} : { "magi.tool.error_code": result.errorCode }),
  });
}
