/**
 * Tool cards (`tool.cards` extension) of simulated built-in tool activities: bounded
 * display cards (title ≤ 256 bytes, ≤ 16 fields of ≤ 1,024-byte label and value). Live
 * `tool.card` events go only to clients that negotiated `tool.cards`; the final card is
 * always saved as a `tool_card` record, and history shows it only to such clients.
 *
 * @module
 */

import { TOOL_CARDS_LIMITS } from "../../protocol/limits.ts";
import { boundUtf8 } from "./bounded_text.ts";

/** A card's content. */
export interface CardContent {
  title: string;
  fields: { label: string; value: string }[];
}

/** The descriptor of the negotiated extension. */
export function toolCardsDescriptor(): Record<string, unknown> {
  return { version: 1, limits: { ...TOOL_CARDS_LIMITS } };
}

/** The bounded card of a built-in activity (`card` when the scenario shapes it). */
export function cardContent(
  step: { tool: string; summary: string; card: CardContent | null },
  state: string,
): CardContent {
  const title = step.card?.title ?? `${step.tool}: ${step.summary}`;
  const fields = step.card?.fields ?? [{ label: "tool", value: step.tool }, {
    label: "state",
    value: state,
  }];
  return {
    title: boundUtf8(title, TOOL_CARDS_LIMITS.title_bytes),
    fields: fields.slice(0, TOOL_CARDS_LIMITS.fields).map((f) => ({
      label: boundUtf8(f.label, TOOL_CARDS_LIMITS.field_bytes),
      value: boundUtf8(f.value, TOOL_CARDS_LIMITS.field_bytes),
    })),
  };
}
