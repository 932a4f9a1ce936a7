/**
 * The selection object (status) and `selection.set` schemas.
 *
 * @module
 */

import { z } from "zod";
import { CATALOG_STRING_BYTES } from "../limits.ts";
import {
  boundedString,
  EffortSchema,
  EffortSupportSchema,
  ExplicitEffortSchema,
  SessionIdSchema,
  WireIdSchema,
} from "./common.ts";

/** A provider or model identifier: 1–256 safe (control-free) UTF-8 bytes. */
export const SelectionNameSchema: z.ZodString = boundedString(CATALOG_STRING_BYTES, {
  minBytes: 1,
  controls: "all",
});

/** `status.selection` when present: the current provider/model/effort selection. */
export const SelectionSchema: z.ZodObject<
  {
    revision: z.ZodString;
    provider: z.ZodNullable<z.ZodString>;
    model: z.ZodNullable<z.ZodString>;
    requested_effort: typeof EffortSchema;
    effective_effort: z.ZodNullable<typeof EffortSchema>;
    effort_support: typeof EffortSupportSchema;
    permitted_efforts: z.ZodArray<typeof EffortSchema>;
  },
  z.core.$strict
> = z.strictObject({
  revision: WireIdSchema,
  provider: SelectionNameSchema.nullable(),
  model: SelectionNameSchema.nullable(),
  requested_effort: EffortSchema,
  effective_effort: EffortSchema.nullable(),
  effort_support: EffortSupportSchema,
  permitted_efforts: z.array(EffortSchema),
});
/** The current selection. */
export type Selection = z.infer<typeof SelectionSchema>;

/** `{ "mode": "keep" }`: preserve the previous requested effort. */
export const EffortKeepSchema: z.ZodObject<{ mode: z.ZodLiteral<"keep"> }, z.core.$strict> = z
  .strictObject({ mode: z.literal("keep") });
/** `{ "mode": "default" }`: reset to the backend's no-override policy. */
export const EffortDefaultSchema: z.ZodObject<{ mode: z.ZodLiteral<"default"> }, z.core.$strict> = z
  .strictObject({ mode: z.literal("default") });
/** `{ "mode": "set", "value": ... }`: an explicit permitted effort. */
export const EffortSetSchema: z.ZodObject<
  { mode: z.ZodLiteral<"set">; value: typeof ExplicitEffortSchema },
  z.core.$strict
> = z.strictObject({
  mode: z.literal("set"),
  value: ExplicitEffortSchema,
});

/** A `selection.set` effort request: exactly keep, default or set. */
export const EffortRequestSchema: z.ZodDiscriminatedUnion<
  [typeof EffortKeepSchema, typeof EffortDefaultSchema, typeof EffortSetSchema],
  "mode"
> = z.discriminatedUnion("mode", [
  EffortKeepSchema,
  EffortDefaultSchema,
  EffortSetSchema,
]);
/** A `selection.set` effort request. */
export type EffortRequest = z.infer<typeof EffortRequestSchema>;

/** `selection.set` params; `effort` omitted means `{ "mode": "keep" }`. */
export const SelectionSetParamsSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    selection_revision: z.ZodString;
    catalog_revision: z.ZodString;
    provider: z.ZodString;
    model: z.ZodString;
    effort: z.ZodExactOptional<typeof EffortRequestSchema>;
  },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  selection_revision: WireIdSchema,
  catalog_revision: WireIdSchema,
  provider: SelectionNameSchema,
  model: SelectionNameSchema,
  effort: z.exactOptional(EffortRequestSchema),
});
/** `selection.set` params. */
export type SelectionSetParams = z.infer<typeof SelectionSetParamsSchema>;

/** The fixed notices of a `selection.set` result. */
export const SelectionSetNoticeSchema: z.ZodEnum<
  {
    selection_normalized: "selection_normalized";
    metadata_update_failed: "metadata_update_failed";
    history_unavailable: "history_unavailable";
  }
> = z.enum([
  "selection_normalized",
  "metadata_update_failed",
  "history_unavailable",
]);
/** A `selection.set` notice. */
export type SelectionSetNotice = z.infer<typeof SelectionSetNoticeSchema>;

/**
 * `selection.set` result. `history_revision` is null exactly when the
 * `history_unavailable` notice is present.
 */
export const SelectionSetResultSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    selection: typeof SelectionSchema;
    catalog_revision: z.ZodString;
    scope: z.ZodLiteral<"session">;
    durable: z.ZodLiteral<true>;
    history_revision: z.ZodNullable<z.ZodString>;
    notices: z.ZodArray<typeof SelectionSetNoticeSchema>;
  },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  selection: SelectionSchema,
  catalog_revision: WireIdSchema,
  scope: z.literal("session"),
  durable: z.literal(true),
  history_revision: WireIdSchema.nullable(),
  notices: z.array(SelectionSetNoticeSchema),
}).check((ctx) => {
  const unavailable = ctx.value.notices.includes("history_unavailable");
  if (unavailable !== (ctx.value.history_revision === null)) {
    ctx.issues.push({
      code: "custom",
      message: "history_revision must be null exactly when history_unavailable is noticed",
      input: ctx.value,
      path: ["history_revision"],
    });
  }
});
/** `selection.set` result. */
export type SelectionSetResult = z.infer<typeof SelectionSetResultSchema>;
