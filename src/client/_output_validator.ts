/**
 * Strict checks of what the backend writes (internal to `connection.ts`), failing closed: each
 * output frame's envelope (strict JSON, one `instance_id`, `seq` without repeats or gaps), a
 * response's result against its method's schema (unknown additional result fields ignored), an
 * event's data against its event's (exact field sets; `client.tool.call` arguments bounded by
 * the advertised `arguments_bytes`), and events only of negotiated capabilities. The
 * hand-written checks of `fast_checks.ts` answer first: what they accept is exactly valid (zod
 * would accept it); anything else is decided, and described, by zod.
 *
 * @module
 */

import type { z } from "zod";
import { decodeOutputFrame, type OutputFrame } from "../protocol/envelope.ts";
import type { JsonValue } from "../protocol/json.ts";
import {
  BaseHistoryPageResultSchema,
  EVENT_SCHEMAS,
  type InitializeResult,
  isEventName,
  METHOD_SCHEMAS,
} from "../protocol/schemas/mod.ts";
import {
  clientToolCallDataSchema,
  type ClientToolCallDataShape,
  type ClientToolsLimitsObject,
} from "../protocol/schemas/client_tools.ts";
import { type AgentEvent, EVENT_CAPABILITY } from "./events.ts";
import { FAST_EVENT_CHECKS, FAST_RESULT_CHECKS, isClientToolCallData } from "./fast_checks.ts";
import { type CheckResult, parseExact, parseTolerant } from "./result_check.ts";

/** An event frame, decoded. */
export type EventFrame = Extract<OutputFrame, { type: "event" }>;

/** The checks of one connection's output, with what they learnt from earlier frames. */
export class OutputValidator {
  #instanceId: string | null = null;
  #lastSeq = 0;
  #negotiated = new Set<string>();
  /** The `client.tools` limits the backend advertised, once initialized with them. */
  #toolLimits: ClientToolsLimitsObject | null = null;
  /** `client.tool.call` data checked against the advertised `arguments_bytes`. */
  #callSchema: ClientToolCallDataShape | null = null;

  /** The backend's `instance_id`, once the first frame arrived. */
  get instanceId(): string | null {
    return this.#instanceId;
  }

  /** The `client.tools` limits the backend advertised, once initialized with them. */
  get toolLimits(): ClientToolsLimitsObject | null {
    return this.#toolLimits;
  }

  /** Take what `initialize` answered: the capabilities negotiated and the tool limits. */
  initialized(result: InitializeResult): void {
    this.#negotiated = new Set(result.capabilities);
    const toolLimits = result.descriptors?.["client.tools"]?.limits;
    if (toolLimits !== undefined) {
      this.#toolLimits = toolLimits;
      this.#callSchema = clientToolCallDataSchema(toolLimits.arguments_bytes);
    }
  }

  /** The frame `text` decodes to, the next one of the same instance; else why not. */
  frame(text: string): OutputFrame | string {
    const decoded = decodeOutputFrame(text);
    if (!decoded.ok) return decoded.reason;
    const frame = decoded.frame;
    if (this.#instanceId === null) this.#instanceId = frame.instanceId;
    else if (frame.instanceId !== this.#instanceId) return "instance_id changed";
    if (frame.seq !== this.#lastSeq + 1) {
      return frame.seq <= this.#lastSeq ? "seq repeated" : "seq gap";
    }
    this.#lastSeq = frame.seq;
    return frame;
  }

  /** The `result` of a response to `method`, checked against the method's result schema. */
  result(method: string, result: JsonValue): CheckResult<unknown> {
    // Without tool.cards, a tool_card history entry is an unknown enum value: fail closed.
    const schema = method === "history.page" && !this.#negotiated.has("tool.cards")
      ? { result: BaseHistoryPageResultSchema }
      : METHOD_SCHEMAS[method as keyof typeof METHOD_SCHEMAS];
    return FAST_RESULT_CHECKS.get(method)?.(result)
      ? { ok: true as const, data: result as unknown }
      : parseTolerant(schema.result as z.ZodType<unknown>, result);
  }

  /** The event `frame` carries, its data checked; else why not. */
  event(frame: EventFrame): AgentEvent | string {
    const name = frame.event;
    if (!isEventName(name)) return "Unknown event name";
    const needs = EVENT_CAPABILITY[name];
    if (needs !== undefined && !this.#negotiated.has(needs)) {
      return `Event of a capability not negotiated: ${name}`;
    }
    const advertised = name === "client.tool.call" ? this.#toolLimits : null;
    const fast = advertised === null
      ? FAST_EVENT_CHECKS.get(name)?.(frame.data)
      : isClientToolCallData(frame.data, advertised.arguments_bytes);
    const parsed = fast ? { ok: true as const, data: frame.data as unknown } : parseExact(
      (advertised === null ? EVENT_SCHEMAS[name] : this.#callSchema!) as z.ZodType<unknown>,
      frame.data,
    );
    if (!parsed.ok) return `Invalid ${name} data: ${parsed.detail}`;
    return { event: name, data: parsed.data, seq: frame.seq } as AgentEvent;
  }
}
