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
  /** The user input is stored; the run has started. */
  "input.persisted": InputPersistedData;
  /** A chunk of the assistant message being written (best effort, may be dropped). */
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
  /** The model called one of the client's tools (`client.tools` extension). */
  "client.tool.call": ClientToolCallData;
  /** A client tool call is cancelled (`client.tools` extension). */
  "client.tool.cancel": ClientToolCancelData;
  /** A tool card for display (`tool.cards` extension). */
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
