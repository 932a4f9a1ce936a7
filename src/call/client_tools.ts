/**
 * Host glue between the client and the executor: each `client.tool.call`
 * event runs through the executor under an `AbortController` registered by
 * call ID; `client.tool.cancel` aborts it (also before the tool started);
 * the result parts go back as pipelined `client.tool.result` requests (all
 * parts sent in order without awaiting each response, then all awaited).
 * When the connection's request-ID budget cannot take a call's parts (every
 * part is a new request ID; the backend closes on its `request_ids` bound),
 * no part of it is sent, no further call is run or answered, and
 * `onRequestBudgetExhausted` is told once. The session's `tool.call`, `tool.cancel` and
 * `tool.result` records are built and handed to their sink by its {@link CallRecords}
 * (`records.ts`), which the executor may share for `tool.log` and `tool.progress`.
 *
 * @module
 */

import { TransientMap } from "../async/transient_map.ts";
import { ProtocolError } from "../protocol/errors.ts";
import type {
  ClientToolCallData,
  ClientToolCancelData,
  ClientToolResultParams,
} from "../protocol/schemas/mod.ts";
import type { AgentEvent } from "../client/events.ts";
import { REQUEST_ID_RESERVE } from "../client/connection.ts";
import { RequestBudgetExhausted } from "../client/errors.ts";
import { markPlainAscii } from "../client/request_frame.ts";
import type { CallExecutor } from "../tool/call.ts";
import { CallRecords, type Delivery, type RecordSink } from "./records.ts";

export type { CallExecutor } from "../tool/call.ts";

/** The client as the session uses it (`LocalAgentClient` satisfies it). */
export interface ResultSender {
  /** Send one `client.tool.result` part. */
  clientToolResult(params: ClientToolResultParams): Promise<unknown>;
  /** Run `send`; the parts it sends leave together (`AgentConnection.together`). */
  together?<T>(send: () => T): T;
  /**
   * Request IDs the connection may still send, the last `REQUEST_ID_RESERVE`
   * kept for `turn.cancel`/`status`/`shutdown` (absent: unbounded).
   */
  readonly remainingRequestIds?: number;
}

/** Options of {@link ToolCallSession}. */
export interface ToolCallSessionOptions {
  /**
   * Receives `tool.call`, `tool.cancel` and `tool.result` summary records: the sink of the
   * session's own records (not used with {@link ToolCallSessionOptions.records}, whose sink
   * receives them).
   */
  onRecord?: RecordSink;
  /**
   * Called once when the request-ID budget cannot take a call's result: from
   * then on no call is run or answered (the connection should be ended, e.g.
   * with a `host.error` naming the error).
   */
  onRequestBudgetExhausted?: (error: RequestBudgetExhausted) => void;
  /**
   * Put a shortened `arguments_preview` on `tool.call` records (the terminal
   * view); default false: arguments are not echoed.
   */
  argumentsPreview?: boolean;
  /**
   * Put the call's arguments on `tool.call` records as `arguments`, through this function
   * (which redacts the configured secrets: `--record-args`); default: not recorded.
   */
  recordArguments?: (args: Readonly<Record<string, unknown>>) => Record<string, unknown>;
  /**
   * With {@link ToolCallSessionOptions.recordArguments}: whether tool `name` declares an output
   * schema; its validated value then goes on the `tool.result` record as `structured`, through
   * the same redaction.
   */
  typed?: (name: string) => boolean;
  /**
   * What builds the records and where they go (shared with the executor, whose `tool.log` and
   * `tool.progress` then go to the same sink); default one of `argumentsPreview`,
   * `recordArguments` and `typed` that hands its records to `onRecord`.
   */
  records?: CallRecords;
}

const EARLY_CANCELS = 1024;

/**
 * Runs client tool calls for one connection. Feed it events with
 * {@link ToolCallSession.handle} (synchronously from the client's
 * subscription, so calls never wait on slower consumers).
 *
 * @example
 * ```ts ignore
 * const session = new ToolCallSession(client, executor, { onRecord: (r) => writer.emit(r) });
 * const unsubscribe = client.subscribe((event) => session.handle(event));
 * ```
 */
export class ToolCallSession {
  #sender: ResultSender;
  #executor: CallExecutor;
  // One entry per running call: TransientMaps, not Map/Set, so that a finished call's
  // objects die young (src/async/transient_map.ts).
  #active = new TransientMap<AbortController>();
  /** Running calls by a number of their own (a call ID may repeat). */
  #tasks = new TransientMap<Promise<void>>();
  #nextTask = 0;
  #earlyCancels = new Set<string>();
  #onExhausted: (error: RequestBudgetExhausted) => void;
  #exhausted: RequestBudgetExhausted | null = null;
  #records: CallRecords;
  /** The attempt of the current turn's unit of work, given to each call (`ctx.attempt`). */
  attempt = 1;

  /** Create the session over `sender` (the client) and `executor`. */
  constructor(sender: ResultSender, executor: CallExecutor, options: ToolCallSessionOptions = {}) {
    this.#sender = sender;
    this.#executor = executor;
    this.#onExhausted = options.onRequestBudgetExhausted ?? (() => {});
    this.#records = options.records ?? new CallRecords({ ...options, emit: options.onRecord });
  }

  /** Why calls are no longer run and answered, or null. */
  get requestBudgetExhausted(): RequestBudgetExhausted | null {
    return this.#exhausted;
  }

  /** Calls running or delivering results. */
  get outstanding(): number {
    return this.#tasks.size;
  }

  /** Handle one event; ignores events other than `client.tool.call` / `client.tool.cancel`. */
  handle(event: AgentEvent): void {
    if (event.event === "client.tool.call") this.#onCall(event.data);
    else if (event.event === "client.tool.cancel") this.#onCancel(event.data);
  }

  /** Abort every running call (e.g. the connection failed). */
  abortAll(reason = "host_stopping"): void {
    for (const controller of this.#active.values()) controller.abort(new Error(reason));
  }

  /** Wait until every call has run and its result delivery settled. */
  async idle(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.allSettled(this.#tasks.values());
  }

  #onCall(data: ClientToolCallData): void {
    // A catalog dispatcher's call is recorded under the tool it runs (`via` names the dispatcher).
    const route = this.#executor.route?.(data.name, data.arguments) ?? null;
    this.#records.call(data, route);
    // Nothing more is answered once the budget ran out; a call that could not
    // send even one part is not run at all.
    if (this.#exhausted !== null || !this.#fits(1)) return;
    const controller = new AbortController();
    if (this.#earlyCancels.delete(data.call_id)) controller.abort(new Error("cancelled"));
    this.#active.set(data.call_id, controller);
    const key = String(this.#nextTask++);
    const task = this.#run(data, controller).finally(() => {
      this.#active.delete(data.call_id);
      this.#tasks.delete(key);
    });
    this.#tasks.set(key, task);
  }

  #onCancel(data: ClientToolCancelData): void {
    this.#records.cancel(data);
    const controller = this.#active.get(data.call_id);
    if (controller !== undefined) {
      controller.abort(new Error(`cancelled: ${data.reason}`));
      return;
    }
    // A cancel for a call not seen yet: honour it when the call arrives.
    if (this.#earlyCancels.size >= EARLY_CANCELS) {
      const oldest = this.#earlyCancels.values().next().value;
      if (oldest !== undefined) this.#earlyCancels.delete(oldest);
    }
    this.#earlyCancels.add(data.call_id);
  }

  async #run(data: ClientToolCallData, controller: AbortController): Promise<void> {
    const result = await this.#executor.execute({
      callId: data.call_id,
      name: data.name,
      toolId: data.tool_id,
      arguments: data.arguments,
      deadlineMs: data.deadline_ms,
      sessionId: data.session_id,
      runId: data.run_id,
      attempt: this.attempt,
    }, controller.signal);
    const route = this.#executor.route?.(data.name, data.arguments) ?? null;
    const parts = result.parts.length > 0 ? result.parts : [""];
    const plainAscii = result.plainAscii;
    const send = () =>
      parts.map((text, part) => {
        const params: ClientToolResultParams = {
          session_id: data.session_id,
          run_id: data.run_id,
          call_id: data.call_id,
          part,
          last_part: part === parts.length - 1,
          outcome: result.outcome,
          text,
        };
        if (result.outcome === "error" && result.errorCode !== undefined) {
          params.error_code = result.errorCode;
        }
        // The split found no control in this ASCII part: its frame can be written around it.
        if (plainAscii?.[part] === true) markPlainAscii(params);
        return this.#sender.clientToolResult(params);
      });
    // All parts or none: a call must never be left with a part missing. Several parts leave
    // together (one write where they fit); a single one at once.
    const sends = this.#exhausted !== null || !this.#fits(parts.length)
      ? []
      : parts.length > 1 && this.#sender.together !== undefined
      ? this.#sender.together(send)
      : send();
    const settled = await Promise.allSettled(sends);
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    let delivery: Delivery = "complete";
    let deliveryError: string | null = null;
    if (sends.length === 0) {
      delivery = "failed";
      deliveryError = "RequestBudgetExhausted";
    } else if (failure !== undefined) {
      if (failure.reason instanceof RequestBudgetExhausted) this.#exhaust(failure.reason);
      const reason = failure.reason;
      if (reason instanceof ProtocolError) {
        // stale_call / stale_run after a cancel are expected: recorded, not fatal.
        delivery = "rejected";
        deliveryError = reason.code;
      } else {
        delivery = "failed";
        deliveryError = reason instanceof Error ? reason.name : "unknown";
      }
    }
    this.#records.result(data, route, result, parts.length, delivery, deliveryError);
  }

  /** Whether `parts` more results fit the sender's budget; marks it exhausted if not. */
  #fits(parts: number): boolean {
    const remaining = this.#sender.remainingRequestIds;
    if (remaining === undefined || remaining - REQUEST_ID_RESERVE >= parts) return true;
    this.#exhaust(new RequestBudgetExhausted("client.tool.result", remaining));
    return false;
  }

  #exhaust(error: RequestBudgetExhausted): void {
    if (this.#exhausted !== null) return;
    this.#exhausted = error;
    this.#onExhausted(error);
  }
}
