/**
 * Zod strict schemas, with inferred types, for every version-1 request's
 * params, result, event data and the error object, plus the method and event
 * registries.
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

/** Every method name: the sixteen base operations plus `client.tool.result`. */
export type Method =
  | "initialize"
  | "status"
  | "shutdown"
  | "session.create"
  | "session.open"
  | "session.list"
  | "session.discover"
  | "model.catalog"
  | "model.catalog.status"
  | "model.refresh"
  | "operation.cancel"
  | "selection.set"
  | "history.page"
  | "turn.start"
  | "turn.cancel"
  | "approval.answer"
  | "client.tool.result";

/** The params and result schema of one method. */
export interface MethodSchemas {
  /** Request params. */
  readonly params: z.ZodType;
  /** Success result. */
  readonly result: z.ZodType;
}

/**
 * Method → its params and result schemas, with their exact types (for
 * {@link MethodParams} and {@link MethodResult}). Use {@link METHOD_SCHEMAS}
 * to look schemas up by a method name known only at run time.
 */
export const METHOD_SCHEMA_MAP = {
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
} as const satisfies { readonly [M in Method]: MethodSchemas };

/**
 * Method → params/result schemas. `history.page`'s result admits `tool_card`
 * entries; clients without `tool.cards` use `BaseHistoryPageResultSchema`.
 */
export const METHOD_SCHEMAS: { readonly [M in Method]: MethodSchemas } = Object.freeze(
  METHOD_SCHEMA_MAP,
);

/** The params type of method `M`. */
export type MethodParams<M extends Method> = z.infer<typeof METHOD_SCHEMA_MAP[M]["params"]>;
/** The result type of method `M`. */
export type MethodResult<M extends Method> = z.infer<typeof METHOD_SCHEMA_MAP[M]["result"]>;

/** Every method name, in the base protocol's order, then `client.tool.result`. */
export const METHODS: readonly Method[] = Object.freeze(Object.keys(METHOD_SCHEMAS) as Method[]);

/**
 * Event name → its data schema, with the exact types (for {@link EventData}).
 * Use {@link EVENT_SCHEMAS} to look schemas up by a name known only at run time.
 */
export const EVENT_SCHEMA_MAP = {
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
} as const satisfies { readonly [E in EventName]: z.ZodType };

/** Event name → data schema (base events, then `client.tools` and `tool.cards` events). */
export const EVENT_SCHEMAS: { readonly [E in EventName]: z.ZodType } = Object.freeze(
  EVENT_SCHEMA_MAP,
);

/** The data type of event `E`. */
export type EventData<E extends EventName> = z.infer<typeof EVENT_SCHEMA_MAP[E]>;

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
