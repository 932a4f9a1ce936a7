/**
 * `tool.cards` extension schemas (`shared/spec/wire-contract.md`): the
 * descriptor and `tool.card` event data. The `tool_card` history entry kind
 * lives in `history.ts`.
 *
 * @module
 */

import { z } from "zod";
import { ACTIVITY_ID_BYTES, TOOL_CARDS_LIMITS } from "../limits.ts";
import { boundedString, SessionIdSchema, WireIdSchema } from "./common.ts";

/** The extension's capability name. */
export const TOOL_CARDS_CAPABILITY = "tool.cards";

/** `tool.cards` descriptor limits. */
export const ToolCardsLimitsSchema: z.ZodObject<
  { title_bytes: z.ZodInt; fields: z.ZodInt; field_bytes: z.ZodInt },
  z.core.$strict
> = z.strictObject({
  title_bytes: z.int().min(1),
  fields: z.int().min(0),
  field_bytes: z.int().min(1),
});
/** `tool.cards` descriptor limits. */
export type ToolCardsLimitsObject = z.infer<typeof ToolCardsLimitsSchema>;

/** `descriptors["tool.cards"]` of the initialization result. */
export const ToolCardsDescriptorSchema: z.ZodObject<
  { version: z.ZodLiteral<1>; limits: typeof ToolCardsLimitsSchema },
  z.core.$strict
> = z.strictObject({
  version: z.literal(1),
  limits: ToolCardsLimitsSchema,
});
/** `descriptors["tool.cards"]`. */
export type ToolCardsDescriptor = z.infer<typeof ToolCardsDescriptorSchema>;

/**
 * One card field. This project's reading: `field_bytes` bounds the label and
 * the value each (the wire contract does not say whether it is per string or combined).
 */
export const ToolCardFieldSchema: z.ZodObject<
  { label: z.ZodString; value: z.ZodString },
  z.core.$strict
> = z.strictObject({
  label: boundedString(TOOL_CARDS_LIMITS.field_bytes),
  value: boundedString(TOOL_CARDS_LIMITS.field_bytes),
});
/** One card field. */
export type ToolCardField = z.infer<typeof ToolCardFieldSchema>;

/** A card's state. */
export const ToolCardStateSchema: z.ZodEnum<
  { started: "started"; completed: "completed"; failed: "failed" }
> = z.enum(["started", "completed", "failed"]);
/** A card's state. */
export type ToolCardState = z.infer<typeof ToolCardStateSchema>;

/** `tool.card` event data. */
export const ToolCardDataSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    run_id: z.ZodString;
    card_id: z.ZodString;
    activity_id: z.ZodString;
    title: z.ZodString;
    state: typeof ToolCardStateSchema;
    fields: z.ZodArray<typeof ToolCardFieldSchema>;
  },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  run_id: WireIdSchema,
  card_id: WireIdSchema,
  activity_id: boundedString(ACTIVITY_ID_BYTES, { minBytes: 1 }),
  title: boundedString(TOOL_CARDS_LIMITS.title_bytes),
  state: ToolCardStateSchema,
  fields: z.array(ToolCardFieldSchema).max(TOOL_CARDS_LIMITS.fields),
});
/** `tool.card` event data. */
export type ToolCardData = z.infer<typeof ToolCardDataSchema>;
