/**
 * Typed run events as the client delivers them: the event name and its data
 * after strict schema validation.
 *
 * @module
 */

import type {
  ActivityData,
  ApprovalRequestedData,
  ClientToolCallData,
  ClientToolCancelData,
  DiagnosticData,
  InputPersistedData,
  MessageDeltaData,
  MessageReconcileData,
  RunFinishedData,
  ToolCardData,
} from "../protocol/schemas/mod.ts";

/** Event name → validated data type. */
export interface EventDataMap {
  "input.persisted": InputPersistedData;
  "message.delta": MessageDeltaData;
  "message.reconcile": MessageReconcileData;
  "activity": ActivityData;
  "approval.requested": ApprovalRequestedData;
  "diagnostic": DiagnosticData;
  "run.finished": RunFinishedData;
  "client.tool.call": ClientToolCallData;
  "client.tool.cancel": ClientToolCancelData;
  "tool.card": ToolCardData;
}

/** One validated event: `event` discriminates `data`; `seq` is the frame's sequence number. */
export type AgentEvent = {
  [K in keyof EventDataMap]: { event: K; data: EventDataMap[K]; seq: number };
}[keyof EventDataMap];

/** The extension capability each extension event needs; base events need none. */
export const EVENT_CAPABILITY: Readonly<Record<string, string>> = Object.freeze({
  "client.tool.call": "client.tools",
  "client.tool.cancel": "client.tools",
  "tool.card": "tool.cards",
});
