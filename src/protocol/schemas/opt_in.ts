/**
 * The four opt-in operations (`wire-contract.md`, project reading):
 * `operation.cancel`, `session.discover`, `model.catalog.status`, `model.refresh`.
 *
 * @module
 */

import { z } from "zod";
import { CodeSchema, compareUtf8, EmptyParamsSchema, WireIdSchema } from "./common.ts";
import { SessionListEntriesSchema } from "./discovery.ts";
import { PageLimitSchema } from "./paging.ts";
import { SelectionNameSchema } from "./selection.ts";
import { CancellationRequestedSchema } from "./turn.ts";

/** `operation.cancel` params: the request ID of a pending operation. */
export const OperationCancelParamsSchema: z.ZodObject<
  { operation_id: z.ZodString },
  z.core.$strict
> = z.strictObject({ operation_id: WireIdSchema });
/** `operation.cancel` params. */
export type OperationCancelParams = z.infer<typeof OperationCancelParamsSchema>;
/** `operation.cancel` result. */
export const OperationCancelResultSchema: z.ZodObject<
  { cancellation_requested: z.ZodLiteral<true> },
  z.core.$strict
> = CancellationRequestedSchema;
/** `operation.cancel` result. */
export type OperationCancelResult = z.infer<typeof OperationCancelResultSchema>;

/** `session.discover` params: `cursor` (default null) and `limit` 1–100 (default 100), both optional. */
export const SessionDiscoverParamsSchema: z.ZodObject<
  { cursor: z.ZodExactOptional<z.ZodNullable<z.ZodString>>; limit: z.ZodExactOptional<z.ZodInt> },
  z.core.$strict
> = z.strictObject({
  cursor: z.exactOptional(WireIdSchema.nullable()),
  limit: z.exactOptional(PageLimitSchema),
});
/** `session.discover` params. */
export type SessionDiscoverParams = z.infer<typeof SessionDiscoverParamsSchema>;

/**
 * `session.discover` result. `notices` is the empty list, as the wire contract
 * writes it literally (per-entry notices carry `cwd_unverified`).
 */
export const SessionDiscoverResultSchema: z.ZodObject<
  {
    sessions: typeof SessionListEntriesSchema;
    next_cursor: z.ZodNullable<z.ZodString>;
    complete: z.ZodBoolean;
    provisional: z.ZodLiteral<true>;
    notices: z.ZodTuple<[], null>;
  },
  z.core.$strict
> = z.strictObject({
  sessions: SessionListEntriesSchema,
  next_cursor: WireIdSchema.nullable(),
  complete: z.boolean(),
  provisional: z.literal(true),
  notices: z.tuple([]),
});
/** `session.discover` result. */
export type SessionDiscoverResult = z.infer<typeof SessionDiscoverResultSchema>;

/** `model.catalog.status` params: exactly `{}`. */
export const ModelCatalogStatusParamsSchema: typeof EmptyParamsSchema = EmptyParamsSchema;
/** `model.catalog.status` params. */
export type ModelCatalogStatusParams = z.infer<typeof ModelCatalogStatusParamsSchema>;

/** One provider's catalog status. */
export const ProviderCatalogStatusSchema: z.ZodObject<
  {
    provider: z.ZodString;
    state: z.ZodEnum<
      {
        available: "available";
        authentication_unavailable: "authentication_unavailable";
        catalog_unavailable: "catalog_unavailable";
        not_enabled: "not_enabled";
      }
    >;
    cached_models: z.ZodInt;
    reasons: z.ZodArray<z.ZodString>;
  },
  z.core.$strict
> = z.strictObject({
  provider: SelectionNameSchema,
  state: z.enum(["available", "authentication_unavailable", "catalog_unavailable", "not_enabled"]),
  cached_models: z.int().min(0),
  reasons: z.array(CodeSchema),
});
/** One provider's catalog status. */
export type ProviderCatalogStatus = z.infer<typeof ProviderCatalogStatusSchema>;

/** `model.catalog.status` result, providers strictly ascending (UTF-8 byte order). */
export const ModelCatalogStatusResultSchema: z.ZodObject<
  { providers: z.ZodArray<typeof ProviderCatalogStatusSchema> },
  z.core.$strict
> = z.strictObject({
  providers: z.array(ProviderCatalogStatusSchema).check((ctx) => {
    for (let i = 1; i < ctx.value.length; i++) {
      const prev = ctx.value[i - 1] as ProviderCatalogStatus;
      const next = ctx.value[i] as ProviderCatalogStatus;
      if (compareUtf8(prev.provider, next.provider) >= 0) {
        ctx.issues.push({
          code: "custom",
          message: "Providers must be strictly ascending",
          input: ctx.value,
          path: [i, "provider"],
        });
        return;
      }
    }
  }),
});
/** `model.catalog.status` result. */
export type ModelCatalogStatusResult = z.infer<typeof ModelCatalogStatusResultSchema>;

/** `model.refresh` params. */
export const ModelRefreshParamsSchema: z.ZodObject<{ provider: z.ZodString }, z.core.$strict> = z
  .strictObject({ provider: SelectionNameSchema });
/** `model.refresh` params. */
export type ModelRefreshParams = z.infer<typeof ModelRefreshParamsSchema>;

/** `model.refresh` result. */
export const ModelRefreshResultSchema: z.ZodObject<
  { provider: z.ZodString; refreshed: z.ZodLiteral<true>; models: z.ZodInt },
  z.core.$strict
> = z.strictObject({
  provider: SelectionNameSchema,
  refreshed: z.literal(true),
  models: z.int().min(0),
});
/** `model.refresh` result. */
export type ModelRefreshResult = z.infer<typeof ModelRefreshResultSchema>;
