/**
 * The four opt-in operations (`wire-contract.md`, project reading):
 * `operation.cancel`, `session.discover`, `model.catalog.status`, `model.refresh`; types as
 * types, their schemas typed as them.
 *
 * @module
 */

import { z } from "zod";
import {
  CodeSchema,
  compareUtf8,
  type EmptyParams,
  EmptyParamsSchema,
  WireIdSchema,
} from "./common.ts";
import { SessionListEntriesSchema, type SessionListEntry } from "./discovery.ts";
import { PageLimitSchema } from "./paging.ts";
import { SelectionNameSchema } from "./selection.ts";
import { type CancellationRequested, CancellationRequestedSchema } from "./turn.ts";

/** `operation.cancel` params: the request ID of a pending operation. */
export type OperationCancelParams = {
  operation_id: string;
};
/** `operation.cancel` result. */
export type OperationCancelResult = CancellationRequested;

/** `session.discover` params: `cursor` (default null) and `limit` 1–100 (default 100), both optional. */
export type SessionDiscoverParams = {
  cursor?: string | null;
  limit?: number;
};

/**
 * `session.discover` result. `notices` is the empty list, as the wire contract
 * writes it literally (per-entry notices carry `cwd_unverified`).
 */
export type SessionDiscoverResult = {
  sessions: SessionListEntry[];
  next_cursor: string | null;
  complete: boolean;
  provisional: true;
  notices: [];
};

/** `model.catalog.status` params: exactly `{}`. */
export type ModelCatalogStatusParams = EmptyParams;

/** One provider's catalog status. */
export type ProviderCatalogStatus = {
  provider: string;
  state: "available" | "authentication_unavailable" | "catalog_unavailable" | "not_enabled";
  cached_models: number;
  reasons: string[];
};

/** `model.catalog.status` result, providers strictly ascending (UTF-8 byte order). */
export type ModelCatalogStatusResult = {
  providers: ProviderCatalogStatus[];
};

/** `model.refresh` params. */
export type ModelRefreshParams = {
  provider: string;
};

/** `model.refresh` result. */
export type ModelRefreshResult = {
  provider: string;
  refreshed: true;
  models: number;
};

function build() {
  const ProviderCatalogStatusSchema = z.strictObject({
    provider: SelectionNameSchema,
    state: z.enum([
      "available",
      "authentication_unavailable",
      "catalog_unavailable",
      "not_enabled",
    ]),
    cached_models: z.int().min(0),
    reasons: z.array(CodeSchema),
  });
  return {
    OperationCancelParamsSchema: z.strictObject({ operation_id: WireIdSchema }),
    SessionDiscoverParamsSchema: z.strictObject({
      cursor: z.exactOptional(WireIdSchema.nullable()),
      limit: z.exactOptional(PageLimitSchema),
    }),
    SessionDiscoverResultSchema: z.strictObject({
      sessions: SessionListEntriesSchema,
      next_cursor: WireIdSchema.nullable(),
      complete: z.boolean(),
      provisional: z.literal(true),
      notices: z.tuple([]),
    }),
    ProviderCatalogStatusSchema,
    ModelCatalogStatusResultSchema: z.strictObject({
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
    }),
    ModelRefreshParamsSchema: z.strictObject({ provider: SelectionNameSchema }),
    ModelRefreshResultSchema: z.strictObject({
      provider: SelectionNameSchema,
      refreshed: z.literal(true),
      models: z.int().min(0),
    }),
  };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type OptInSchemas = ReturnType<typeof build>;
const built: OptInSchemas = build();

/** `operation.cancel` params. */
export const OperationCancelParamsSchema: z.ZodType<OperationCancelParams> =
  built.OperationCancelParamsSchema;
/** `operation.cancel` result. */
export const OperationCancelResultSchema: z.ZodType<OperationCancelResult> =
  CancellationRequestedSchema;
/** `session.discover` params. */
export const SessionDiscoverParamsSchema: z.ZodType<SessionDiscoverParams> =
  built.SessionDiscoverParamsSchema;
/** `session.discover` result. */
export const SessionDiscoverResultSchema: z.ZodType<SessionDiscoverResult> =
  built.SessionDiscoverResultSchema;
/** `model.catalog.status` params. */
export const ModelCatalogStatusParamsSchema: z.ZodType<ModelCatalogStatusParams> =
  EmptyParamsSchema;
/** One provider's catalog status. */
export const ProviderCatalogStatusSchema: z.ZodType<ProviderCatalogStatus> =
  built.ProviderCatalogStatusSchema;
/** `model.catalog.status` result. */
export const ModelCatalogStatusResultSchema: z.ZodType<ModelCatalogStatusResult> =
  built.ModelCatalogStatusResultSchema;
/** `model.refresh` params. */
export const ModelRefreshParamsSchema: z.ZodType<ModelRefreshParams> =
  built.ModelRefreshParamsSchema;
/** `model.refresh` result. */
export const ModelRefreshResultSchema: z.ZodType<ModelRefreshResult> =
  built.ModelRefreshResultSchema;
