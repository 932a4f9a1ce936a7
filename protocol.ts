/**
 * `@magi/tools/protocol`: the `magi-code.local-agent` version 1 wire contract as
 * `LocalAgentClient` speaks it: the bounds ({@link LIMITS} and the extensions'
 * limits), the wire error codes and {@link ProtocolError}, the method and event
 * names, and the type of every method's params and result and every event's
 * data ({@link MethodParams}, {@link MethodResult}, {@link EventData}). To check
 * a value against the contract: {@link parseParams}, {@link parseResult},
 * {@link parseEventData} (strict: unknown fields and out-of-bound strings are
 * rejected).
 *
 * @example Bounds and error codes
 * ```ts
 * import { isErrorCode, LIMITS } from "@magi/tools/protocol";
 * console.assert(LIMITS.input_frame_bytes === 65_536 && isErrorCode("busy"));
 * ```
 *
 * @example Check a method's params
 * ```ts
 * import { parseParams, type TurnStartParams } from "@magi/tools/protocol";
 * const params: TurnStartParams = parseParams("turn.start", { session_id: "s1", prompt: "hi" });
 * console.assert(params.prompt === "hi");
 * ```
 *
 * @module
 */

export {
  CLIENT_TOOLS_LIMITS,
  type ClientToolsLimits,
  LIMITS,
  type Limits,
  PROTOCOL,
  TOOL_CARDS_LIMITS,
  VERSION,
} from "./src/protocol/limits.ts";
export {
  ERROR_CODES,
  type ErrorCode,
  isErrorCode,
  OPERATION_ERROR_CODES,
  PROTOCOL_ERROR_CODES,
  ProtocolError,
  type ProtocolErrorCode,
  STARTUP_ERROR_CODES,
  type StartupErrorCode,
} from "./src/protocol/errors.ts";
export {
  BASE_CAPABILITIES,
  BASE_HISTORY_ENTRY_KINDS,
  type BaseCapability,
  EFFORTS,
  EVENT_NAMES,
  type EventData,
  type EventMap,
  type EventName,
  EXPLICIT_EFFORTS,
  EXTENSION_CAPABILITIES,
  type ExtensionCapability,
  HISTORY_ENTRY_KINDS,
  isEventName,
  isMethod,
  type Method,
  type MethodMap,
  type MethodParams,
  type MethodResult,
  METHODS,
  OPT_IN_CAPABILITIES,
  type OptInCapability,
  parseEventData,
  parseParams,
  parseResult,
} from "./src/protocol/schemas/mod.ts";
export type {
  ActivityData,
  ActivityKind,
  ActivityState,
  ApprovalAnswerParams,
  ApprovalAnswerResult,
  ApprovalRequestedData,
  BaseHistoryEntry,
  BaseHistoryEntryKind,
  BaseHistoryPageResult,
  CancellationRequested,
  CatalogChoice,
  ClientToolCallData,
  ClientToolCancelData,
  ClientToolCancelReason,
  ClientToolDefinition,
  ClientToolDefinitions,
  ClientToolOutcome,
  ClientToolResultParams,
  ClientToolResultResult,
  ClientToolsDescriptor,
  ClientToolsLimitsObject,
  Descriptors,
  DiagnosticData,
  Effort,
  EffortRequest,
  EffortSupport,
  Eligibility,
  EmptyParams,
  ExplicitEffort,
  HistoryEntry,
  HistoryEntryKind,
  HistoryPageParams,
  HistoryPageResult,
  InitializeParams,
  InitializeResult,
  InputPersistedData,
  LimitsObject,
  MessageDeltaData,
  MessageReconcileData,
  ModelCatalogParams,
  ModelCatalogResult,
  ModelCatalogStatusParams,
  ModelCatalogStatusResult,
  ModelRefreshParams,
  ModelRefreshResult,
  OperationCancelParams,
  OperationCancelResult,
  ProviderCatalogStatus,
  Readiness,
  RegisteredClientTool,
  RunFinishedData,
  RunOutcome,
  RunPersistence,
  Selection,
  SelectionSetNotice,
  SelectionSetParams,
  SelectionSetResult,
  SessionCreateParams,
  SessionCreateResult,
  SessionDiscoverParams,
  SessionDiscoverResult,
  SessionListEntry,
  SessionListParams,
  SessionListResult,
  SessionOpenParams,
  SessionOpenResult,
  ShutdownParams,
  ShutdownResult,
  SnapshotPageParams,
  Status,
  StatusParams,
  StatusResult,
  StatusState,
  ToolCardData,
  ToolCardField,
  ToolCardsDescriptor,
  ToolCardsLimitsObject,
  ToolCardState,
  ToolEffect,
  TurnCancelParams,
  TurnCancelResult,
  TurnStartParams,
  TurnStartResult,
} from "./src/protocol/schemas/mod.ts";
