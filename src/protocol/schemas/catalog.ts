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
export const ModelCatalogParamsSchema = SnapshotPageParamsSchema;
/** `model.catalog` params. */
export type ModelCatalogParams = z.infer<typeof ModelCatalogParamsSchema>;

const DisplayNameSchema = boundedString(CATALOG_STRING_BYTES, { minBytes: 1, controls: "all" });

/** One cached provider/model choice. */
export const CatalogChoiceSchema = z.strictObject({
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
export const ModelCatalogResultSchema = z.strictObject({
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
