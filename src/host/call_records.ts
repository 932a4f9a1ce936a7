/**
 * The `tool.*` summary records of a call, built in one place (docs/summaries.md): `tool.call`
 * and `tool.cancel` as the backend's events arrive, `tool.log` and `tool.progress` while the
 * call runs, `tool.result` once its parts were delivered. Each takes the call's run from the
 * call itself; a catalog dispatcher's call is recorded under the tool it runs (`via` names the
 * dispatcher).
 *
 * @module
 */

import { utf8ByteLength } from "../protocol/utf8.ts";
import type { ClientToolCallData, ClientToolCancelData } from "../protocol/schemas/mod.ts";
import type { SummaryInput } from "../summary/records.ts";
import type { ToolCallRequest, ToolCallResult } from "./call.ts";
import type { CallRoute } from "./catalog_executor.ts";
import type { ToolProgress } from "./external.ts";
import type { ToolLog } from "./sandbox/log_buffer.ts";
import { argumentsPreview } from "./text.ts";

/** Options of {@link CallRecords}. */
export interface CallRecordsOptions {
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

/** How a call's result parts were delivered (`tool.result`'s `delivery`). */
export type Delivery = "complete" | "rejected" | "failed";

/** Builds the `tool.*` records of calls (see the module comment). */
export class CallRecords {
  readonly #argumentsPreview: boolean;
  readonly #recordArguments: CallRecordsOptions["recordArguments"];
  readonly #typed: CallRecordsOptions["typed"];

  /** Records with `options`. */
  constructor(options: CallRecordsOptions = {}) {
    this.#argumentsPreview = options.argumentsPreview === true;
    this.#recordArguments = options.recordArguments;
    this.#typed = options.typed;
  }

  /** `tool.call`: the backend's `client.tool.call` event. */
  call(data: ClientToolCallData, route: CallRoute | null): SummaryInput {
    return {
      type: "tool.call",
      run_id: data.run_id,
      call_id: data.call_id,
      name: route?.name ?? data.name,
      tool_id: route?.toolId ?? data.tool_id,
      ...(route === null ? {} : { via: route.via }),
      arguments_bytes: utf8ByteLength(JSON.stringify(data.arguments)),
      deadline_ms: data.deadline_ms,
      ...(this.#argumentsPreview ? { arguments_preview: argumentsPreview(data.arguments) } : {}),
      ...(this.#recordArguments === undefined
        ? {}
        : { arguments: this.#recordArguments(data.arguments) }),
    };
  }

  /** `tool.cancel`: the backend's `client.tool.cancel` event. */
  cancel(data: ClientToolCancelData): SummaryInput {
    return {
      type: "tool.cancel",
      run_id: data.run_id,
      call_id: data.call_id,
      reason: data.reason,
    };
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
    return {
      type: "tool.result",
      run_id: data.run_id,
      call_id: data.call_id,
      name: route?.name ?? data.name,
      ...(route === null ? {} : { via: route.via }),
      outcome: result.outcome,
      error_code: result.outcome === "error" ? result.errorCode ?? null : null,
      bytes: result.bytes,
      parts,
      duration_ms: Math.max(0, Math.round(result.durationMs)),
      abandoned: result.abandoned,
      killed: result.killed,
      delivery,
      delivery_error: deliveryError,
      ...this.#structured(route?.name ?? data.name, result),
    };
  }

  /** `tool.log`: a piece of a process tool's captured output while `call` runs. */
  log(call: ToolCallRequest, log: ToolLog): SummaryInput {
    return {
      type: "tool.log",
      run_id: call.runId,
      call_id: log.callId,
      name: log.name,
      text: log.text,
      bytes: log.bytes,
      truncated_bytes: log.truncatedBytes,
    };
  }

  /** `tool.progress`: one progress update of tool `name` while `call` runs. */
  progress(call: ToolCallRequest, name: string, update: ToolProgress): SummaryInput {
    return {
      type: "tool.progress",
      run_id: call.runId,
      call_id: call.callId,
      name,
      progress: update.progress,
      ...(update.total === undefined ? {} : { total: update.total }),
      ...(update.message === undefined ? {} : { message: update.message }),
    };
  }

  /** `{structured}` for a typed tool's success under `--record-args`, else nothing. */
  #structured(name: string, result: ToolCallResult): { structured?: Record<string, unknown> } {
    const record = this.#recordArguments;
    if (record === undefined || result.outcome !== "success" || this.#typed?.(name) !== true) {
      return {};
    }
    try {
      // The executor validated it against the output schema (an object) before it left.
      const value: unknown = JSON.parse(result.text);
      if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
      return { structured: record(value as Record<string, unknown>) };
    } catch {
      return {};
    }
  }
}
