/**
 * Every version-1 request's params and result, event data and the error object, each an
 * object type with its zod strict schema typed as it, plus the method and event maps
 * ({@link MethodMap}, {@link EventMap}) and their schema registries. The wire types are object
 * type aliases, not interfaces, so that a value stays assignable to `Record<string, unknown>`
 * and `JsonObject` (as the inferred types were).
 *
 * @example
 * ```ts
 * import { METHOD_SCHEMAS } from "./mod.ts";
 * const parsed = METHOD_SCHEMAS["turn.start"].params.safeParse({ session_id: "s1", prompt: "hi" });
 * console.assert(parsed.success);
 * ```
 *
 * @module
 */

import type { z } from "zod";
import { ApprovalAnswerParamsSchema, ApprovalAnswerResultSchema } from "./turn.ts";
import {
  TurnCancelParamsSchema,
  TurnCancelResultSchema,
  TurnStartParamsSchema,
  TurnStartResultSchema,
} from "./turn.ts";
import {
  ClientToolCallDataSchema,
  ClientToolCancelDataSchema,
  ClientToolResultParamsSchema,
  ClientToolResultResultSchema,
} from "./client_tools.ts";
import { InitializeParamsSchema, InitializeResultSchema } from "./initialize.ts";
import {
  ShutdownParamsSchema,
  ShutdownResultSchema,
  StatusParamsSchema,
  StatusResultSchema,
} from "./status.ts";
import {
  SessionCreateParamsSchema,
  SessionCreateResultSchema,
  SessionOpenParamsSchema,
  SessionOpenResultSchema,
} from "./session.ts";
import { SessionListParamsSchema, SessionListResultSchema } from "./discovery.ts";
import { ModelCatalogParamsSchema, ModelCatalogResultSchema } from "./catalog.ts";
import {
  ModelCatalogStatusParamsSchema,
  ModelCatalogStatusResultSchema,
  ModelRefreshParamsSchema,
  ModelRefreshResultSchema,
  OperationCancelParamsSchema,
  OperationCancelResultSchema,
  SessionDiscoverParamsSchema,
  SessionDiscoverResultSchema,
} from "./opt_in.ts";
import { SelectionSetParamsSchema, SelectionSetResultSchema } from "./selection.ts";
import { HistoryPageParamsSchema, HistoryPageResultSchema } from "./history.ts";
import {
  ActivityDataSchema,
  ApprovalRequestedDataSchema,
  DiagnosticDataSchema,
  EVENT_NAMES,
  type EventName,
  InputPersistedDataSchema,
  MessageDeltaDataSchema,
  MessageReconcileDataSchema,
  RunFinishedDataSchema,
} from "./events.ts";
import { ToolCardDataSchema } from "./tool_cards.ts";

import type {
  ActivityData,
  ApprovalRequestedData,
  DiagnosticData,
  InputPersistedData,
  MessageDeltaData,
  MessageReconcileData,
  RunFinishedData,
} from "./events.ts";
import type {
  ApprovalAnswerParams,
  ApprovalAnswerResult,
  TurnCancelParams,
  TurnCancelResult,
  TurnStartParams,
  TurnStartResult,
} from "./turn.ts";
import type {
  ClientToolCallData,
  ClientToolCancelData,
  ClientToolResultParams,
  ClientToolResultResult,
} from "./client_tools.ts";
import type { InitializeParams, InitializeResult } from "./initialize.ts";
import type { ShutdownParams, ShutdownResult, StatusParams, StatusResult } from "./status.ts";
import type {
  SessionCreateParams,
  SessionCreateResult,
  SessionOpenParams,
  SessionOpenResult,
} from "./session.ts";
import type { SessionListParams, SessionListResult } from "./discovery.ts";
import type { ModelCatalogParams, ModelCatalogResult } from "./catalog.ts";
import type {
  ModelCatalogStatusParams,
  ModelCatalogStatusResult,
  ModelRefreshParams,
  ModelRefreshResult,
  OperationCancelParams,
  OperationCancelResult,
  SessionDiscoverParams,
  SessionDiscoverResult,
} from "./opt_in.ts";
import type { SelectionSetParams, SelectionSetResult } from "./selection.ts";
import type { HistoryPageParams, HistoryPageResult } from "./history.ts";
import type { ToolCardData } from "./tool_cards.ts";

export * from "./common.ts";
export * from "./capabilities.ts";
export * from "./initialize.ts";
export * from "./status.ts";
export * from "./session.ts";
export * from "./paging.ts";
export * from "./discovery.ts";
export * from "./catalog.ts";
export * from "./selection.ts";
export * from "./history.ts";
export * from "./turn.ts";
export * from "./events.ts";
export * from "./client_tools.ts";
export * from "./tool_cards.ts";
export * from "./opt_in.ts";
export * from "./frames.ts";

/**
 * Method name → the type of its params and of its result: the sixteen base operations plus
 * `client.tool.result`.
 */
export interface MethodMap {
  /** Negotiate capabilities and limits; the first request. */
  "initialize": { params: InitializeParams; result: InitializeResult };
  /** The backend's state, readiness and selection. */
  "status": { params: StatusParams; result: StatusResult };
  /** Stop the backend after the requests in flight. */
  "shutdown": { params: ShutdownParams; result: ShutdownResult };
  /** A new, lazily persisted session. */
  "session.create": { params: SessionCreateParams; result: SessionCreateResult };
  /** Attach an existing session by ID. */
  "session.open": { params: SessionOpenParams; result: SessionOpenResult };
  /** Sessions of this working directory, paged. */
  "session.list": { params: SessionListParams; result: SessionListResult };
  /** Sessions found elsewhere (opt-in), paged. */
  "session.discover": { params: SessionDiscoverParams; result: SessionDiscoverResult };
  /** The cached provider/model choices, paged. */
  "model.catalog": { params: ModelCatalogParams; result: ModelCatalogResult };
  /** Each provider's catalog state (opt-in). */
  "model.catalog.status": { params: ModelCatalogStatusParams; result: ModelCatalogStatusResult };
  /** Refresh one provider's catalog (opt-in). */
  "model.refresh": { params: ModelRefreshParams; result: ModelRefreshResult };
  /** Cancel a pending opt-in operation. */
  "operation.cancel": { params: OperationCancelParams; result: OperationCancelResult };
  /** Set the session's provider, model and effort. */
  "selection.set": { params: SelectionSetParams; result: SelectionSetResult };
  /** One page of a session's history. */
  "history.page": { params: HistoryPageParams; result: HistoryPageResult };
  /** Start a run with a prompt. */
  "turn.start": { params: TurnStartParams; result: TurnStartResult };
  /** Cancel a run. */
  "turn.cancel": { params: TurnCancelParams; result: TurnCancelResult };
  /** Answer an `approval.requested` event. */
  "approval.answer": { params: ApprovalAnswerParams; result: ApprovalAnswerResult };
  /** One part of a client tool call's result (`client.tools`). */
  "client.tool.result": { params: ClientToolResultParams; result: ClientToolResultResult };
}

/** Every method name: the sixteen base operations plus `client.tool.result`. */
export type Method = keyof MethodMap;
/** The params type of method `M`. */
export type MethodParams<M extends Method> = MethodMap[M]["params"];
/** The result type of method `M`. */
export type MethodResult<M extends Method> = MethodMap[M]["result"];

/** The params and result schema of one method. */
export interface MethodSchemas {
  /** Request params. */
  readonly params: z.ZodType;
  /** Success result. */
  readonly result: z.ZodType;
}

/**
 * Method → its params and result schemas, typed as {@link MethodMap}. `history.page`'s result
 * admits `tool_card` entries; clients without `tool.cards` use `BaseHistoryPageResultSchema`.
 */
export const METHOD_SCHEMA_MAP: {
  readonly [M in Method]: {
    readonly params: z.ZodType<MethodParams<M>>;
    readonly result: z.ZodType<MethodResult<M>>;
  };
} = Object.freeze({
  "initialize": { params: InitializeParamsSchema, result: InitializeResultSchema },
  "status": { params: StatusParamsSchema, result: StatusResultSchema },
  "shutdown": { params: ShutdownParamsSchema, result: ShutdownResultSchema },
  "session.create": { params: SessionCreateParamsSchema, result: SessionCreateResultSchema },
  "session.open": { params: SessionOpenParamsSchema, result: SessionOpenResultSchema },
  "session.list": { params: SessionListParamsSchema, result: SessionListResultSchema },
  "session.discover": { params: SessionDiscoverParamsSchema, result: SessionDiscoverResultSchema },
  "model.catalog": { params: ModelCatalogParamsSchema, result: ModelCatalogResultSchema },
  "model.catalog.status": {
    params: ModelCatalogStatusParamsSchema,
    result: ModelCatalogStatusResultSchema,
  },
  "model.refresh": { params: ModelRefreshParamsSchema, result: ModelRefreshResultSchema },
  "operation.cancel": { params: OperationCancelParamsSchema, result: OperationCancelResultSchema },
  "selection.set": { params: SelectionSetParamsSchema, result: SelectionSetResultSchema },
  "history.page": { params: HistoryPageParamsSchema, result: HistoryPageResultSchema },
  "turn.start": { params: TurnStartParamsSchema, result: TurnStartResultSchema },
  "turn.cancel": { params: TurnCancelParamsSchema, result: TurnCancelResultSchema },
  "approval.answer": { params: ApprovalAnswerParamsSchema, result: ApprovalAnswerResultSchema },
  "client.tool.result": {
    params: ClientToolResultParamsSchema,
    result: ClientToolResultResultSchema,
  },
});

/** Method → params/result schemas, for a method name known only at run time. */
export const METHOD_SCHEMAS: { readonly [M in Method]: MethodSchemas } = METHOD_SCHEMA_MAP;

/** Every method name, in the base protocol's order, then `client.tool.result`. */
export const METHODS: readonly Method[] = Object.freeze(Object.keys(METHOD_SCHEMAS) as Method[]);

/** Event name → the type of its data (base events, then `client.tools` and `tool.cards` events). */
export interface EventMap {
  /** The user input is stored; the run has started. */
  "input.persisted": InputPersistedData;
  /** A chunk of the assistant message being written (best effort). */
  "message.delta": MessageDeltaData;
  /** The authoritative state of an assistant message. */
  "message.reconcile": MessageReconcileData;
  /** A tool, subagent or compaction activity started, completed or failed. */
  "activity": ActivityData;
  /** A write tool call waits for `approval.answer`. */
  "approval.requested": ApprovalRequestedData;
  /** A safe diagnostic code from the backend. */
  "diagnostic": DiagnosticData;
  /** The run ended: outcome, persistence and revision. */
  "run.finished": RunFinishedData;
  /** The model called one of the client's tools (`client.tools`). */
  "client.tool.call": ClientToolCallData;
  /** A client tool call is cancelled (`client.tools`). */
  "client.tool.cancel": ClientToolCancelData;
  /** A tool card for display (`tool.cards`). */
  "tool.card": ToolCardData;
}

/** The data type of event `E`. */
export type EventData<E extends EventName> = EventMap[E];

/** Event name → data schema, typed as {@link EventMap}. */
export const EVENT_SCHEMA_MAP: { readonly [E in EventName]: z.ZodType<EventMap[E]> } = Object
  .freeze({
    "input.persisted": InputPersistedDataSchema,
    "message.delta": MessageDeltaDataSchema,
    "message.reconcile": MessageReconcileDataSchema,
    "activity": ActivityDataSchema,
    "approval.requested": ApprovalRequestedDataSchema,
    "diagnostic": DiagnosticDataSchema,
    "run.finished": RunFinishedDataSchema,
    "client.tool.call": ClientToolCallDataSchema,
    "client.tool.cancel": ClientToolCancelDataSchema,
    "tool.card": ToolCardDataSchema,
  });

/** Event name → data schema, for an event name known only at run time. */
export const EVENT_SCHEMAS: { readonly [E in EventName]: z.ZodType } = EVENT_SCHEMA_MAP;

const METHOD_SET: ReadonlySet<string> = new Set(METHODS);
const EVENT_SET: ReadonlySet<string> = new Set(EVENT_NAMES);

/** Whether `name` is a version-1 method (including `client.tool.result`). */
export function isMethod(name: string): name is Method {
  return METHOD_SET.has(name);
}

/** Whether `name` is a version-1 event name (including extension events). */
export function isEventName(name: string): name is EventName {
  return EVENT_SET.has(name);
}

/**
 * Check `value` as the params of `method` (strict: unknown fields, wrong types and
 * out-of-bound strings are rejected). Returns the params; throws `TypeError` naming the
 * problems otherwise.
 */
export function parseParams<M extends Method>(method: M, value: unknown): MethodParams<M> {
  return checked(METHOD_SCHEMAS[method].params, value, `${method} params`) as MethodParams<M>;
}

/** Check `value` as the result of `method`, like {@link parseParams}. */
export function parseResult<M extends Method>(method: M, value: unknown): MethodResult<M> {
  return checked(METHOD_SCHEMAS[method].result, value, `${method} result`) as MethodResult<M>;
}

/** Check `value` as the data of event `event`, like {@link parseParams}. */
export function parseEventData<E extends EventName>(event: E, value: unknown): EventData<E> {
  return checked(EVENT_SCHEMAS[event], value, `${event} data`) as EventData<E>;
}

function checked(schema: z.ZodType, value: unknown, what: string): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) =>
    `${issue.path.length > 0 ? issue.path.join(".") : "value"}: ${issue.message}`
  );
  throw new TypeError(`Invalid ${what}: ${problems.join("; ")}`);
}
