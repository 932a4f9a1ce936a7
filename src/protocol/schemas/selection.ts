/**
 * The selection object (status) and `selection.set`: object types, their schemas typed
 * as them.
 *
 * @module
 */

import { z } from "zod";
import { CATALOG_STRING_BYTES } from "../limits.ts";
import {
  boundedString,
  type Effort,
  EffortSchema,
  type EffortSupport,
  EffortSupportSchema,
  type ExplicitEffort,
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
export type Selection = {
  revision: string;
  provider: string | null;
  model: string | null;
  requested_effort: Effort;
  effective_effort: Effort | null;
  effort_support: EffortSupport;
  permitted_efforts: Effort[];
};

/**
 * A `selection.set` effort request: exactly `{ "mode": "keep" }` (preserve the previous
 * requested effort), `{ "mode": "default" }` (reset to the backend's no-override policy) or
 * `{ "mode": "set", "value": ... }` (an explicit permitted effort).
 */
export type EffortRequest =
  | { mode: "keep" }
  | { mode: "default" }
  | { mode: "set"; value: ExplicitEffort };

/** `selection.set` params; `effort` omitted means `{ "mode": "keep" }`. */
export type SelectionSetParams = {
  session_id: string;
  selection_revision: string;
  catalog_revision: string;
  provider: string;
  model: string;
  effort?: EffortRequest;
};

/** A fixed notice of a `selection.set` result. */
export type SelectionSetNotice =
  | "selection_normalized"
  | "metadata_update_failed"
  | "history_unavailable";

/**
 * `selection.set` result. `history_revision` is null exactly when the
 * `history_unavailable` notice is present.
 */
export type SelectionSetResult = {
  session_id: string;
  selection: Selection;
  catalog_revision: string;
  scope: "session";
  durable: true;
  history_revision: string | null;
  notices: SelectionSetNotice[];
};

function build() {
  const SelectionSchema = z.strictObject({
    revision: WireIdSchema,
    provider: SelectionNameSchema.nullable(),
    model: SelectionNameSchema.nullable(),
    requested_effort: EffortSchema,
    effective_effort: EffortSchema.nullable(),
    effort_support: EffortSupportSchema,
    permitted_efforts: z.array(EffortSchema),
  });
  const EffortRequestSchema = z.discriminatedUnion("mode", [
    z.strictObject({ mode: z.literal("keep") }),
    z.strictObject({ mode: z.literal("default") }),
    z.strictObject({ mode: z.literal("set"), value: ExplicitEffortSchema }),
  ]);
  const SelectionSetParamsSchema = z.strictObject({
    session_id: SessionIdSchema,
    selection_revision: WireIdSchema,
    catalog_revision: WireIdSchema,
    provider: SelectionNameSchema,
    model: SelectionNameSchema,
    effort: z.exactOptional(EffortRequestSchema),
  });
  const SelectionSetResultSchema = z.strictObject({
    session_id: SessionIdSchema,
    selection: SelectionSchema,
    catalog_revision: WireIdSchema,
    scope: z.literal("session"),
    durable: z.literal(true),
    history_revision: WireIdSchema.nullable(),
    notices: z.array(
      z.enum(["selection_normalized", "metadata_update_failed", "history_unavailable"]),
    ),
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
  return {
    SelectionSchema,
    EffortRequestSchema,
    SelectionSetParamsSchema,
    SelectionSetResultSchema,
  };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type SelectionSchemas = ReturnType<typeof build>;
const built: SelectionSchemas = build();

/** The current selection. */
export const SelectionSchema: z.ZodType<Selection> = built.SelectionSchema;
/** A `selection.set` effort request. */
export const EffortRequestSchema: z.ZodType<EffortRequest> = built.EffortRequestSchema;
/** `selection.set` params. */
export const SelectionSetParamsSchema: z.ZodType<SelectionSetParams> =
  built.SelectionSetParamsSchema;
/** `selection.set` result. */
export const SelectionSetResultSchema: z.ZodType<SelectionSetResult> =
  built.SelectionSetResultSchema;
