/**
 * `model.catalog`: params and result object types, their schemas typed as them.
 *
 * @module
 */

import { z } from "zod";
import { CATALOG_PAGE_ENTRIES, CATALOG_STRING_BYTES } from "../limits.ts";
import {
  boundedString,
  compareUtf8,
  type Effort,
  EffortSchema,
  type EffortSupport,
  EffortSupportSchema,
  NoticesSchema,
  WireIdSchema,
} from "./common.ts";
import { type SnapshotPageParams, SnapshotPageParamsSchema } from "./paging.ts";
import { SelectionNameSchema } from "./selection.ts";

/** `model.catalog` params. */
export const ModelCatalogParamsSchema: z.ZodType<ModelCatalogParams> = SnapshotPageParamsSchema;
/** `model.catalog` params. */
export type ModelCatalogParams = SnapshotPageParams;

/** One cached provider/model choice. */
export type CatalogChoice = {
  selection_id: string;
  provider: string;
  model: string;
  provider_name: string | null;
  model_name: string | null;
  availability: "available" | "authentication_unavailable";
  effort_support: EffortSupport;
  permitted_efforts: Effort[];
};

/** `model.catalog` result; choices strictly ascending by provider then model (UTF-8 byte order). */
export type ModelCatalogResult = {
  revision: string;
  choices: CatalogChoice[];
  next_cursor: string | null;
  complete: boolean;
  notices: string[];
  source: "cache_only";
};

function build() {
  const DisplayName = boundedString(CATALOG_STRING_BYTES, { minBytes: 1, controls: "all" });
  const CatalogChoiceSchema = z.strictObject({
    selection_id: WireIdSchema,
    provider: SelectionNameSchema,
    model: SelectionNameSchema,
    provider_name: DisplayName.nullable(),
    model_name: DisplayName.nullable(),
    availability: z.enum(["available", "authentication_unavailable"]),
    effort_support: EffortSupportSchema,
    permitted_efforts: z.array(EffortSchema),
  });
  const ModelCatalogResultSchema = z.strictObject({
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
  return { CatalogChoiceSchema, ModelCatalogResultSchema };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type CatalogSchemas = ReturnType<typeof build>;
const built: CatalogSchemas = build();

/** One catalog choice. */
export const CatalogChoiceSchema: z.ZodType<CatalogChoice> = built.CatalogChoiceSchema;
/** `model.catalog` result. */
export const ModelCatalogResultSchema: z.ZodType<ModelCatalogResult> =
  built.ModelCatalogResultSchema;
