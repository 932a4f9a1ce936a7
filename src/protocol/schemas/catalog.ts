/**
 * `model.catalog` schemas.
 *
 * @module
 */

import { z } from "zod";
import { CATALOG_PAGE_ENTRIES, CATALOG_STRING_BYTES } from "../limits.ts";
import {
  boundedString,
  compareUtf8,
  EffortSchema,
  EffortSupportSchema,
  NoticesSchema,
  WireIdSchema,
} from "./common.ts";
import { SnapshotPageParamsSchema } from "./paging.ts";
import { SelectionNameSchema } from "./selection.ts";

/** `model.catalog` params. */
export const ModelCatalogParamsSchema: z.ZodObject<
  {
    revision: z.ZodExactOptional<z.ZodNullable<z.ZodString>>;
    cursor: z.ZodExactOptional<z.ZodNullable<z.ZodString>>;
    limit: z.ZodExactOptional<z.ZodInt>;
  },
  z.core.$strict
> = SnapshotPageParamsSchema;
/** `model.catalog` params. */
export type ModelCatalogParams = z.infer<typeof ModelCatalogParamsSchema>;

const DisplayNameSchema = boundedString(CATALOG_STRING_BYTES, { minBytes: 1, controls: "all" });

/** One cached provider/model choice. */
export const CatalogChoiceSchema: z.ZodObject<
  {
    selection_id: z.ZodString;
    provider: z.ZodString;
    model: z.ZodString;
    provider_name: z.ZodNullable<z.ZodString>;
    model_name: z.ZodNullable<z.ZodString>;
    availability: z.ZodEnum<
      { available: "available"; authentication_unavailable: "authentication_unavailable" }
    >;
    effort_support: typeof EffortSupportSchema;
    permitted_efforts: z.ZodArray<typeof EffortSchema>;
  },
  z.core.$strict
> = z.strictObject({
  selection_id: WireIdSchema,
  provider: SelectionNameSchema,
  model: SelectionNameSchema,
  provider_name: DisplayNameSchema.nullable(),
  model_name: DisplayNameSchema.nullable(),
  availability: z.enum(["available", "authentication_unavailable"]),
  effort_support: EffortSupportSchema,
  permitted_efforts: z.array(EffortSchema),
});
/** One catalog choice. */
export type CatalogChoice = z.infer<typeof CatalogChoiceSchema>;

/** `model.catalog` result; choices strictly ascending by provider then model (UTF-8 byte order). */
export const ModelCatalogResultSchema: z.ZodObject<
  {
    revision: z.ZodString;
    choices: z.ZodArray<typeof CatalogChoiceSchema>;
    next_cursor: z.ZodNullable<z.ZodString>;
    complete: z.ZodBoolean;
    notices: z.ZodArray<z.ZodString>;
    source: z.ZodLiteral<"cache_only">;
  },
  z.core.$strict
> = z.strictObject({
  revision: WireIdSchema,
  choices: z.array(CatalogChoiceSchema).max(CATALOG_PAGE_ENTRIES).check((ctx) => {
    for (let i = 1; i < ctx.value.length; i++) {
      const prev = ctx.value[i - 1] as CatalogChoice;
      const next = ctx.value[i] as CatalogChoice;
      const order = compareUtf8(prev.provider, next.provider) ||
        compareUtf8(prev.model, next.model);
      if (order >= 0) {
        ctx.issues.push({
          code: "custom",
          message: "Choices must be strictly ascending by provider then model",
          input: ctx.value,
          path: [i],
        });
        return;
      }
    }
  }),
  next_cursor: WireIdSchema.nullable(),
  complete: z.boolean(),
  notices: NoticesSchema,
  source: z.literal("cache_only"),
});
/** `model.catalog` result. */
export type ModelCatalogResult = z.infer<typeof ModelCatalogResultSchema>;
