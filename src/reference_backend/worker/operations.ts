/**
 * The session-worker operations beyond create/open: history, discovery, catalog,
 * selection and the opt-in operations. Each runs off the read loop with a cancellation
 * signal and answers one response payload.
 *
 * @module
 */

import type { ErrorCode } from "../../protocol/errors.ts";
import { SELECTION_APPEND_BYTES } from "../../protocol/limits.ts";
import type { Effort, EffortRequest, Method, MethodParams } from "../../protocol/schemas/mod.ts";
import type { CatalogState } from "../catalog/catalog_pages.ts";
import type { CatalogContext, CatalogScan } from "../catalog/catalog_scan.ts";
import { scanCatalog } from "../catalog/catalog_scan.ts";
import { historyPage } from "../sessions/history_pages.ts";
import { discoverPage } from "../sessions/discover_pages.ts";
import type { SessionListing } from "../sessions/listing.ts";
import { errorPayload as error, type ResponsePayload } from "../server/outbox.ts";
import { jsonBytes } from "../paging.ts";
import { refreshCatalog } from "../catalog/refresh.ts";
import {
  effortInfo,
  type SelectionFields,
  type SelectionState,
} from "../catalog/selection_state.ts";
import type { Attachment, Sessions } from "../sessions/sessions.ts";
import type { StoredRecord } from "../sessions/session_store.ts";
import type { Runtime } from "../startup/startup.ts";

/** What the operations need from the child. */
export interface WorkContext {
  runtime: Runtime;
  sessions: Sessions;
  selection: SelectionState;
  /** The startup selection (restored when a session has no saved one). */
  startup: SelectionFields;
  catalog: CatalogState;
  listing: SessionListing;
  env: (name: string) => string | undefined;
  signal: AbortSignal;
  /** Whether `tool.cards` was negotiated. */
  cards: boolean;
}

type Params<M extends Method> = MethodParams<M>;

function catalogContext(context: WorkContext): CatalogContext {
  return {
    mcHome: context.runtime.mcHome,
    providers: context.runtime.providers,
    selectedProvider: context.selection.fields.provider,
    env: context.env,
    signal: context.signal,
  };
}

function scanContext(context: WorkContext) {
  return {
    dir: context.sessions.dir,
    cwd: context.runtime.cwd,
    attachedId: context.sessions.attached?.id ?? null,
    signal: context.signal,
  };
}

/** `history.page` on the matched attachment. */
export async function historyWork(
  context: WorkContext,
  attachment: Attachment,
  params: Params<"history.page">,
): Promise<ResponsePayload> {
  const page = await historyPage(attachment, {
    revision: params.revision,
    cursor: params.cursor ?? null,
    cwd: context.runtime.cwd,
    cards: context.cards,
  });
  return page.ok ? { result: page.page } : error(page.code);
}

/** `session.list`. */
export async function listWork(
  context: WorkContext,
  params: Params<"session.list">,
): Promise<ResponsePayload> {
  const page = await context.listing.list({
    revision: params.revision ?? null,
    cursor: params.cursor ?? null,
    limit: params.limit ?? 100,
  }, scanContext(context));
  return page.ok ? { result: page.page } : error(page.code);
}

/** `session.discover`. */
export async function discoverWork(
  context: WorkContext,
  params: Params<"session.discover">,
): Promise<ResponsePayload> {
  const page = await discoverPage({
    cursor: params.cursor ?? null,
    limit: params.limit ?? 100,
  }, scanContext(context));
  return page.ok ? { result: page.page } : error(page.code);
}

/** `model.catalog`; a successful observation reconciles the selection's effort metadata. */
export async function catalogWork(
  context: WorkContext,
  params: Params<"model.catalog">,
): Promise<ResponsePayload> {
  const page = await context.catalog.page({
    revision: params.revision ?? null,
    cursor: params.cursor ?? null,
    limit: params.limit ?? 100,
  }, catalogContext(context));
  if (!page.ok) return error(page.code);
  context.selection.observe(page.scan);
  return { result: page.page };
}

/** `model.catalog.status`. */
export async function catalogStatusWork(context: WorkContext): Promise<ResponsePayload> {
  const scanned = await scanCatalog(catalogContext(context));
  if (!scanned.ok) return error(scanned.code);
  return { result: { providers: scanned.scan.providers } };
}

/** `model.refresh`: any catalog snapshot becomes stale. */
export async function refreshWork(
  context: WorkContext,
  params: Params<"model.refresh">,
): Promise<ResponsePayload> {
  const provider = params.provider;
  const refreshed = await refreshCatalog(provider, catalogContext(context));
  if (!refreshed.ok) return error(refreshed.code);
  context.catalog.invalidate();
  return { result: { provider, refreshed: true, models: refreshed.models } };
}

/** `selection.set` on the matched attachment. */
export async function selectWork(
  context: WorkContext,
  attachment: Attachment,
  params: Params<"selection.set">,
): Promise<ResponsePayload> {
  if (params.selection_revision !== context.selection.revision) return error("stale_selection");
  const catalogRevision = params.catalog_revision;
  const first = await context.catalog.revalidate(catalogRevision, catalogContext(context));
  if (!first.ok) return error(first.code);
  const { provider, model } = params;
  const choice = first.scan.choices.find((c) => c.provider === provider && c.model === model);
  if (choice === undefined) return error("selection_invalid");
  if (choice.availability !== "available") return error("provider_unavailable");
  const requested = requestedEffort(
    params.effort ?? { mode: "keep" },
    context.selection.fields.requested,
    choice.permitted_efforts,
  );
  if (requested === null) return error("effort_unsupported");
  const second = await context.catalog.revalidate(catalogRevision, catalogContext(context));
  if (!second.ok) return error(second.code);
  if (context.signal.aborted) return error("operation_cancelled");
  const record = { provider, model, effort: requested, selection_id: choice.selection_id };
  if (jsonBytes(record) + 512 > SELECTION_APPEND_BYTES) return error("persistence_failed");
  let historyRevision: string;
  try {
    if (!(await context.sessions.ensureWritable(attachment))) return error("persistence_failed");
    historyRevision = await attachment.file.append("session_preferences", record);
    context.sessions.markDurable(attachment);
  } catch {
    return error("persistence_failed");
  }
  context.selection.replace({
    provider,
    model,
    requested,
    support: choice.effort_support,
    permitted: choice.permitted_efforts,
  });
  return {
    result: {
      session_id: attachment.id,
      selection: context.selection.toObject(),
      catalog_revision: catalogRevision,
      scope: "session",
      durable: true,
      history_revision: historyRevision,
      notices: [],
    },
  };
}

/** The requested effort after `request`, or null when it is not permitted. */
export function requestedEffort(
  request: EffortRequest,
  previous: Effort,
  permitted: readonly Effort[],
): Effort | null {
  if (request.mode === "default") return "default";
  const wanted = request.mode === "set" ? request.value : previous;
  if (wanted === "default") return "default";
  return permitted.includes(wanted) ? wanted : null;
}

/**
 * The selection an attachment with `preferences` restores (the saved one, or the startup
 * selection) and its notices, without applying it: the attachment applies it when it commits.
 */
export async function selectionToRestore(
  context: WorkContext,
  preferences: StoredRecord | null,
): Promise<{ fields: SelectionFields; notices: string[] }> {
  if (preferences === null) return { fields: context.startup, notices: [] };
  const saved = typeof preferences.effort === "string" ? preferences.effort as Effort : "default";
  const provider = preferences.provider;
  const model = preferences.model;
  let scan: CatalogScan | null = null;
  const scanned = await scanCatalog(catalogContext(context));
  if (scanned.ok) scan = scanned.scan;
  const choice = scan?.choices.find((c) => c.provider === provider && c.model === model);
  if (choice === undefined || choice.availability !== "available") {
    return {
      fields: { ...context.startup, requested: saved },
      notices: ["saved_selection_unavailable"],
    };
  }
  const info = effortInfo(scan, choice.provider, choice.model);
  const fields = { provider: choice.provider, model: choice.model, requested: saved, ...info };
  const applies = saved === "default" || info.permitted.includes(saved);
  return { fields, notices: applies ? [] : ["saved_selection_notice"] };
}

/** The startup selection, its effort metadata from the local cache when it lists the model. */
export async function startupSelectionOf(
  runtime: Runtime,
  env: (name: string) => string | undefined,
  signal: AbortSignal,
): Promise<SelectionFields> {
  const scanned = await scanCatalog({
    mcHome: runtime.mcHome,
    providers: runtime.providers,
    selectedProvider: runtime.provider,
    env,
    signal,
  }).catch(() => null);
  const scan = scanned?.ok ? scanned.scan : null;
  return {
    provider: runtime.provider,
    model: runtime.model,
    requested: "default",
    ...effortInfo(scan, runtime.provider, runtime.model),
  };
}

/**
 * Turn admission observes the local catalog: when the selection's effort semantics changed,
 * the selection is refreshed (new revision) and the turn fails with `stale_selection`.
 */
export async function observeForTurn(context: WorkContext): Promise<ErrorCode | null> {
  const scanned = await scanCatalog(catalogContext(context));
  if (!scanned.ok) return null;
  const before = context.selection.revision;
  context.selection.observe(scanned.scan);
  return context.selection.revision === before ? null : "stale_selection";
}
