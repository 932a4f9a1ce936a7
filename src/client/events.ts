/**
 * Typed run events as the client delivers them: the event name and its data
 * after strict schema validation.
 *
 * @module
 */

import type { EventMap } from "../protocol/schemas/mod.ts";

/** Event name → validated data type: the protocol's {@link EventMap}, under the client's name. */
export type EventDataMap = EventMap;

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
