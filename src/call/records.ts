/**
 * The `tool.*` summary records of a call, built in one place (docs/summaries.md) and handed, as
 * they are built, to the one {@link RecordSink} given when the {@link CallRecords} is made:
 * `tool.call` and `tool.cancel` as the backend's events arrive (`client_tools.ts`), `tool.log` and
 * `tool.progress` while the call runs (the executor's `records` option), `tool.result` once its
 * parts were delivered. Each takes the call's run from the call itself; a catalog dispatcher's
 * call is recorded under the tool it runs (`via` names the dispatcher). `argumentsPreview` is the
 * call's arguments as the terminal view shows them.
 *
 * @module
 */

import { utf8ByteLength } from "../protocol/utf8.ts";
import type { ClientToolCallData, ClientToolCancelData } from "../protocol/schemas/mod.ts";
import type { SummaryInput, ToolCallRecord, ToolResultRecord } from "../summary/records.ts";
import type { ToolCallRequest, ToolCallResult } from "../tool/call.ts";
import type { CallRoute } from "./catalog_route.ts";
import type { ToolProgress } from "../tool/external.ts";
import type { ToolLog } from "../sandbox/log_buffer.ts";
import { ARGUMENTS_PREVIEW_BYTES } from "../summary/constants.ts";
import { truncateText } from "../text/bounded.ts";

export { ARGUMENTS_PREVIEW_BYTES };

/** Compact JSON of a call's arguments, cut to {@link ARGUMENTS_PREVIEW_BYTES} (ends with "…" when cut). */
export function argumentsPreview(args: unknown): string {
  return truncateText(JSON.stringify(args) ?? "null", ARGUMENTS_PREVIEW_BYTES);
}

/** Where finished records go (a turn's summary writer, a test's array), one at a time. */
export type RecordSink = (record: SummaryInput) => void;

/** Options of {@link CallRecords}. */
export interface CallRecordsOptions {
  /**
   * Receives each record as it is built (every method below hands it over before returning it);
   * default none: the records are only returned.
   */
  readonly emit?: RecordSink | undefined;
  /**
   * Put a shortened `arguments_preview` on `tool.call` records (the terminal
   * view); default false: arguments are not echoed.
   */
  readonly argumentsPreview?: boolean | undefined;
  /**
   * Put the call's arguments on `tool.call` records as `arguments`, through this function
   * (which redacts the configured secrets: `--record-args`); default: not recorded.
   */
  readonly recordArguments?:
    | ((args: Readonly<Record<string, unknown>>) => Record<string, unknown>)
    | undefined;
  /**
   * With {@link CallRecordsOptions.recordArguments}: whether tool `name` declares an output
   * schema; its validated value then goes on the `tool.result` record as `structured`, through
   * the same redaction.
   */
  readonly typed?: ((name: string) => boolean) | undefined;
}

/** A record as built here: no `ts`/`v` (the writer adds them), optional fields set after. */
type Input<R> = { -readonly [K in keyof Omit<R, "ts" | "v">]: Omit<R, "ts" | "v">[K] };

/** How a call's result parts were delivered (`tool.result`'s `delivery`). */
export type Delivery = "complete" | "rejected" | "failed";

/**
 * Builds the `tool.*` records of calls and hands each to the sink (see the module comment); each
 * method also returns the record it built.
 */
export class CallRecords {
  readonly #emit: RecordSink | undefined;
  readonly #argumentsPreview: boolean;
  readonly #recordArguments: CallRecordsOptions["recordArguments"];
  readonly #typed: CallRecordsOptions["typed"];

  /** Records with `options`. */
  constructor(options: CallRecordsOptions = {}) {
    this.#emit = options.emit;
    this.#argumentsPreview = options.argumentsPreview === true;
    this.#recordArguments = options.recordArguments;
    this.#typed = options.typed;
  }

  /** `tool.call`: the backend's `client.tool.call` event. */
  call(data: ClientToolCallData, route: CallRoute | null): SummaryInput {
    const { run_id, call_id } = data;
    const arguments_bytes = utf8ByteLength(JSON.stringify(data.arguments));
    const deadline_ms = data.deadline_ms;
    // Built without spreads (one per call), fields in the record's order.
    const record: Input<ToolCallRecord> = route === null
      ? {
        type: "tool.call",
        run_id,
        call_id,
        name: data.name,
        tool_id: data.tool_id,
        arguments_bytes,
        deadline_ms,
      }
      : {
        type: "tool.call",
        run_id,
        call_id,
        name: route.name,
        tool_id: route.toolId,
        via: route.via,
        arguments_bytes,
        deadline_ms,
      };
    if (this.#argumentsPreview) record.arguments_preview = argumentsPreview(data.arguments);
    if (this.#recordArguments !== undefined) {
      record.arguments = this.#recordArguments(data.arguments);
    }
    return this.#out(record);
  }

  /** `tool.cancel`: the backend's `client.tool.cancel` event. */
  cancel(data: ClientToolCancelData): SummaryInput {
    return this.#out({
      type: "tool.cancel",
      run_id: data.run_id,
      call_id: data.call_id,
      reason: data.reason,
    });
  }

  /** `tool.result`: the call's result, sent as `parts` parts with `delivery`. */
  result(
    data: ClientToolCallData,
    route: CallRoute | null,
    result: ToolCallResult,
    parts: number,
    delivery: Delivery,
    deliveryError: string | null,
  ): SummaryInput {
    const { run_id, call_id } = data;
    const { outcome, bytes, abandoned, killed } = result;
    const error_code = outcome === "error" ? result.errorCode ?? null : null;
    const duration_ms = Math.max(0, Math.round(result.durationMs));
    const delivery_error = deliveryError;
    // Built without spreads (one per call), fields in the record's order.
    const record: Input<ToolResultRecord> = route === null
      ? {
        type: "tool.result",
        run_id,
        call_id,
        name: data.name,
        outcome,
        error_code,
        bytes,
        parts,
        duration_ms,
        abandoned,
        killed,
        delivery,
        delivery_error,
      }
      : {
        type: "tool.result",
        run_id,
        call_id,
        name: route.name,
        via: route.via,
        outcome,
        error_code,
        bytes,
        parts,
        duration_ms,
        abandoned,
        killed,
        delivery,
        delivery_error,
      };
    const structured = this.#structured(record.name, result);
    if (structured !== undefined) record.structured = structured;
    return this.#out(record);
  }

  /** `tool.log`: a piece of a process tool's captured output while `call` runs. */
  log(call: ToolCallRequest, log: ToolLog): SummaryInput {
    return this.#out({
      type: "tool.log",
      run_id: call.runId,
      call_id: log.callId,
      name: log.name,
      text: log.text,
      bytes: log.bytes,
      truncated_bytes: log.truncatedBytes,
    });
  }

  /** `tool.progress`: one progress update of tool `name` while `call` runs. */
  progress(call: ToolCallRequest, name: string, update: ToolProgress): SummaryInput {
    return this.#out({
      type: "tool.progress",
      run_id: call.runId,
      call_id: call.callId,
      name,
      progress: update.progress,
      ...(update.total === undefined ? {} : { total: update.total }),
      ...(update.message === undefined ? {} : { message: update.message }),
    });
  }

  /** Hand `record` to the sink; returns it. */
  #out(record: SummaryInput): SummaryInput {
    this.#emit?.(record);
    return record;
  }

  /** `structured` for a typed tool's success under `--record-args`, else undefined. */
  #structured(name: string, result: ToolCallResult): Record<string, unknown> | undefined {
    const record = this.#recordArguments;
    if (record === undefined || result.outcome !== "success" || this.#typed?.(name) !== true) {
      return undefined;
    }
    try {
      // The executor validated it against the output schema (an object) before it left.
      const value: unknown = JSON.parse(result.text);
      if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
      return record(value as Record<string, unknown>);
    } catch {
      return undefined;
    }
  }
}
