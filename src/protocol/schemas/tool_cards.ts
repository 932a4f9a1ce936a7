/**
 * `tool.cards` extension (`shared/spec/wire-contract.md`): the descriptor and `tool.card`
 * event data, as object types with their schemas typed as them. The `tool_card` history entry
 * kind lives in `history.ts`.
 *
 * @module
 */

import { z } from "zod";
import { ACTIVITY_ID_BYTES, TOOL_CARDS_LIMITS } from "../limits.ts";
import { boundedString, SessionIdSchema, WireIdSchema } from "./common.ts";

/** The extension's capability name. */
export const TOOL_CARDS_CAPABILITY = "tool.cards";

/** `tool.cards` descriptor limits. */
export type ToolCardsLimitsObject = {
  title_bytes: number;
  fields: number;
  field_bytes: number;
};

/** `descriptors["tool.cards"]` of the initialization result. */
export type ToolCardsDescriptor = {
  version: 1;
  limits: ToolCardsLimitsObject;
};

/**
 * One card field. This project's reading: `field_bytes` bounds the label and
 * the value each (the wire contract does not say whether it is per string or combined).
 */
export type ToolCardField = {
  label: string;
  value: string;
};

/** A card's state. */
export type ToolCardState = "started" | "completed" | "failed";

/** `tool.card` event data. */
export type ToolCardData = {
  session_id: string;
  run_id: string;
  card_id: string;
  activity_id: string;
  title: string;
  state: ToolCardState;
  fields: ToolCardField[];
};

function build() {
  const ToolCardsLimitsSchema = z.strictObject({
    title_bytes: z.int().min(1),
    fields: z.int().min(0),
    field_bytes: z.int().min(1),
  });
  const ToolCardFieldSchema = z.strictObject({
    label: boundedString(TOOL_CARDS_LIMITS.field_bytes),
    value: boundedString(TOOL_CARDS_LIMITS.field_bytes),
  });
  const ToolCardStateSchema = z.enum(["started", "completed", "failed"]);
  return {
    ToolCardsLimitsSchema,
    ToolCardsDescriptorSchema: z.strictObject({
      version: z.literal(1),
      limits: ToolCardsLimitsSchema,
    }),
    ToolCardFieldSchema,
    ToolCardStateSchema,
    ToolCardDataSchema: z.strictObject({
      session_id: SessionIdSchema,
      run_id: WireIdSchema,
      card_id: WireIdSchema,
      activity_id: boundedString(ACTIVITY_ID_BYTES, { minBytes: 1 }),
      title: boundedString(TOOL_CARDS_LIMITS.title_bytes),
      state: ToolCardStateSchema,
      fields: z.array(ToolCardFieldSchema).max(TOOL_CARDS_LIMITS.fields),
    }),
  };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type ToolCardSchemas = ReturnType<typeof build>;
const built: ToolCardSchemas = build();

/** `tool.cards` descriptor limits. */
export const ToolCardsLimitsSchema: z.ZodType<ToolCardsLimitsObject> = built.ToolCardsLimitsSchema;
/** `descriptors["tool.cards"]`. */
export const ToolCardsDescriptorSchema: z.ZodType<ToolCardsDescriptor> =
  built.ToolCardsDescriptorSchema;
/** One card field. */
export const ToolCardFieldSchema: z.ZodType<ToolCardField> = built.ToolCardFieldSchema;
/** A card's state. */
export const ToolCardStateSchema: z.ZodType<ToolCardState> = built.ToolCardStateSchema;
/** `tool.card` event data. */
export const ToolCardDataSchema: z.ZodType<ToolCardData> = built.ToolCardDataSchema;
