/**
 * `LocalAgentClient`: a typed method per operation the host uses, over an
 * {@link AgentConnection}.
 *
 * @module
 */

import type {
  ApprovalAnswerParams,
  ApprovalAnswerResult,
  ClientToolResultParams,
  ClientToolResultResult,
  HistoryPageResult,
  InitializeParams,
  InitializeResult,
  ModelCatalogParams,
  ModelCatalogResult,
  ModelCatalogStatusResult,
  ModelRefreshResult,
  OperationCancelResult,
  SelectionSetParams,
  SelectionSetResult,
  SessionCreateResult,
  SessionDiscoverParams,
  SessionDiscoverResult,
  SessionListParams,
  SessionListResult,
  SessionOpenResult,
  ShutdownResult,
  StatusResult,
  TurnCancelResult,
  TurnStartResult,
} from "../protocol/schemas/mod.ts";
import { AgentConnection, type RequestOptions } from "./connection.ts";
import { followCursor, followSnapshot } from "./paging.ts";

export * from "./connection.ts";

/**
 * A `magi-code.local-agent` version 1 client.
 *
 * @example
 * ```ts ignore
 * import { LocalAgentClient } from "./client.ts";
 * import { spawnChild } from "../runtime/mod.ts";
 * const child = spawnChild("magi-code", ["serve", "--stdio"]);
 * const client = new LocalAgentClient(child);
 * await client.initialize({ required_capabilities: ["status", "shutdown"] });
 * ```
 */
export class LocalAgentClient extends AgentConnection {
  /** `initialize`. */
  initialize(params: InitializeParams, options?: RequestOptions): Promise<InitializeResult> {
    return this.request("initialize", params, options);
  }

  /** `status`. */
  status(options?: RequestOptions): Promise<StatusResult> {
    return this.request("status", {}, options);
  }

  /** `shutdown`. */
  shutdown(options?: RequestOptions): Promise<ShutdownResult> {
    return this.request("shutdown", {}, options);
  }

  /** `session.create`. */
  sessionCreate(options?: RequestOptions): Promise<SessionCreateResult> {
    return this.request("session.create", {}, options);
  }

  /** `session.open` of exactly `sessionId`. */
  sessionOpen(sessionId: string, options?: RequestOptions): Promise<SessionOpenResult> {
    return this.request("session.open", { session_id: sessionId }, options);
  }

  /** `turn.start`. */
  turnStart(
    sessionId: string,
    prompt: string,
    options?: RequestOptions,
  ): Promise<TurnStartResult> {
    return this.request("turn.start", { session_id: sessionId, prompt }, options);
  }

  /** `turn.cancel`. */
  turnCancel(
    sessionId: string,
    runId: string,
    options?: RequestOptions,
  ): Promise<TurnCancelResult> {
    return this.request(
      "turn.cancel",
      { session_id: sessionId, run_id: runId },
      options,
    );
  }

  /** `approval.answer`. */
  approvalAnswer(
    params: ApprovalAnswerParams,
    options?: RequestOptions,
  ): Promise<ApprovalAnswerResult> {
    return this.request("approval.answer", params, options);
  }

  /** `client.tool.result` (one part). */
  clientToolResult(
    params: ClientToolResultParams,
    options?: RequestOptions,
  ): Promise<ClientToolResultResult> {
    return this.request("client.tool.result", params, options);
  }

  /** `session.list`: one page (fresh snapshot, or a continuation with revision and cursor). */
  sessionList(
    params: SessionListParams = {},
    options?: RequestOptions,
  ): Promise<SessionListResult> {
    return this.request("session.list", params, options);
  }

  /** `session.discover` (opt-in): one provisional page scanning forward from `cursor`. */
  sessionDiscover(
    params: SessionDiscoverParams = {},
    options?: RequestOptions,
  ): Promise<SessionDiscoverResult> {
    return this.request("session.discover", params, options);
  }

  /** `model.catalog`: one page of cached choices. */
  modelCatalog(
    params: ModelCatalogParams = {},
    options?: RequestOptions,
  ): Promise<ModelCatalogResult> {
    return this.request("model.catalog", params, options);
  }

  /** `model.catalog.status` (opt-in). */
  modelCatalogStatus(options?: RequestOptions): Promise<ModelCatalogStatusResult> {
    return this.request("model.catalog.status", {}, options);
  }

  /** `model.refresh` (opt-in) of `provider`'s catalog cache. */
  modelRefresh(provider: string, options?: RequestOptions): Promise<ModelRefreshResult> {
    return this.request("model.refresh", { provider }, options);
  }

  /** `operation.cancel` (opt-in) of the pending request `operationId`. */
  operationCancel(operationId: string, options?: RequestOptions): Promise<OperationCancelResult> {
    return this.request("operation.cancel", { operation_id: operationId }, options);
  }

  /** `selection.set`. */
  selectionSet(params: SelectionSetParams, options?: RequestOptions): Promise<SelectionSetResult> {
    return this.request("selection.set", params, options);
  }

  /** `history.page`: one page of `revision` from `cursor` (null: the first page). */
  historyPage(
    sessionId: string,
    revision: string,
    cursor: string | null = null,
    options?: RequestOptions,
  ): Promise<HistoryPageResult> {
    return this.request(
      "history.page",
      { session_id: sessionId, revision, cursor },
      options,
    );
  }

  /**
   * Every `history.page` of `revision`, following cursors to the end. Throws
   * `StaleSnapshot` on `stale_revision`.
   */
  historyPages(
    sessionId: string,
    revision: string,
    options?: RequestOptions,
  ): AsyncIterable<HistoryPageResult> {
    return followCursor(
      "history",
      (cursor) => this.historyPage(sessionId, revision, cursor, options),
    );
  }

  /**
   * Every `session.list` page of one fresh snapshot, `limit` sessions a page. Throws
   * `StaleSnapshot` on `stale_revision`.
   */
  sessionPages(limit = 100, options?: RequestOptions): AsyncIterable<SessionListResult> {
    return followSnapshot(
      "sessions",
      (revision, cursor) =>
        this.sessionList(revision === null ? { limit } : { revision, cursor, limit }, options),
    );
  }

  /**
   * Every `model.catalog` page of one fresh snapshot. Throws `StaleSnapshot` on
   * `stale_catalog`.
   */
  catalogPages(limit = 100, options?: RequestOptions): AsyncIterable<ModelCatalogResult> {
    return followSnapshot(
      "catalog",
      (revision, cursor) =>
        this.modelCatalog(revision === null ? { limit } : { revision, cursor, limit }, options),
    );
  }

  /** Every `session.discover` page (provisional: de-duplicate by session ID). */
  discoverPages(limit = 100, options?: RequestOptions): AsyncIterable<SessionDiscoverResult> {
    return followCursor("sessions", (cursor) => this.sessionDiscover({ cursor, limit }, options));
  }
}
