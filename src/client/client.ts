/**
 * `LocalAgentClient`: a typed method per operation the host uses, over an
 * {@link AgentConnection}.
 *
 * @module
 */

import type { JsonObject } from "../protocol/json.ts";
import type {
  ApprovalAnswerParams,
  ApprovalAnswerResult,
  ClientToolResultParams,
  ClientToolResultResult,
  InitializeParams,
  InitializeResult,
  SessionCreateResult,
  SessionOpenResult,
  ShutdownResult,
  StatusResult,
  TurnCancelResult,
  TurnStartResult,
} from "../protocol/schemas/mod.ts";
import { AgentConnection, type RequestOptions } from "./connection.ts";

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
    return this.request("initialize", params as JsonObject, options) as Promise<InitializeResult>;
  }

  /** `status`. */
  status(options?: RequestOptions): Promise<StatusResult> {
    return this.request("status", {}, options) as Promise<StatusResult>;
  }

  /** `shutdown`. */
  shutdown(options?: RequestOptions): Promise<ShutdownResult> {
    return this.request("shutdown", {}, options) as Promise<ShutdownResult>;
  }

  /** `session.create`. */
  sessionCreate(options?: RequestOptions): Promise<SessionCreateResult> {
    return this.request("session.create", {}, options) as Promise<SessionCreateResult>;
  }

  /** `session.open` of exactly `sessionId`. */
  sessionOpen(sessionId: string, options?: RequestOptions): Promise<SessionOpenResult> {
    return this.request("session.open", { session_id: sessionId }, options) as Promise<
      SessionOpenResult
    >;
  }

  /** `turn.start`. */
  turnStart(
    sessionId: string,
    prompt: string,
    options?: RequestOptions,
  ): Promise<TurnStartResult> {
    return this.request("turn.start", { session_id: sessionId, prompt }, options) as Promise<
      TurnStartResult
    >;
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
    ) as Promise<
      TurnCancelResult
    >;
  }

  /** `approval.answer`. */
  approvalAnswer(
    params: ApprovalAnswerParams,
    options?: RequestOptions,
  ): Promise<ApprovalAnswerResult> {
    return this.request("approval.answer", params, options) as Promise<ApprovalAnswerResult>;
  }

  /** `client.tool.result` (one part). */
  clientToolResult(
    params: ClientToolResultParams,
    options?: RequestOptions,
  ): Promise<ClientToolResultResult> {
    return this.request("client.tool.result", params as JsonObject, options) as Promise<
      ClientToolResultResult
    >;
  }
}
