/**
 * The client tool calls and approvals of one run: unknown tools and oversized arguments
 * answered locally, the write-tool approval gate, at most `concurrent_calls` outstanding
 * and at most `calls_per_run` calls.
 *
 * @module
 */

import { CLIENT_TOOLS_LIMITS } from "../../protocol/limits.ts";
import type { ApprovalBook } from "./approvals.ts";
import type { EventChannel } from "./channel.ts";
import type { RegisteredTool } from "../client_tools/definitions.ts";
import type { CallBook, CancelReason, ToolResult } from "../client_tools/calls.ts";
import { RunFailure } from "../provider/provider.ts";
import type { CallStep } from "../provider/scenario.ts";
import { boundSummary } from "./bounded_text.ts";
import { utf8ByteLength } from "../../protocol/utf8.ts";

/** What {@link RunCalls} needs from its run. */
export interface RunCallsDeps {
  /** The run's session and run IDs. */
  scope: { sessionId: string; runId: string };
  channel: EventChannel;
  approvals: ApprovalBook;
  calls: CallBook;
  tools: ReadonlyMap<string, RegisteredTool>;
  /** Aborted when the run stops. */
  signal: AbortSignal;
  /** How calls are stopped once the run is aborted, or null while it runs. */
  stopped: () => { reason: CancelReason; grace: boolean } | null;
  /** Count one activity identity (throws past the run's bound). */
  countActivity: () => void;
  /** Save a finished call's activity in history (name and final state, never its result). */
  record: (name: string, state: "completed" | "failed") => Promise<void>;
}

/** Call and approval bookkeeping of one run. */
export class RunCalls {
  readonly #deps: RunCallsDeps;
  readonly #pending = new Set<Promise<ToolResult>>();
  readonly #waiters: (() => void)[] = [];
  #active = 0;
  #made = 0;

  /** Bookkeeping for one run. */
  constructor(deps: RunCallsDeps) {
    this.#deps = deps;
  }

  /** Start `specs` together; results in the order of `specs`. */
  callTools(specs: readonly CallStep[]): Promise<ToolResult[]> {
    return Promise.all(specs.map((spec) => {
      const task = this.#callOne(spec);
      this.#pending.add(task);
      task.finally(() => this.#pending.delete(task)).catch(() => {});
      return task;
    }));
  }

  /** Ask for approval; false on deny, expiry, cancellation or undeliverable request. */
  async approve(summary: string): Promise<boolean> {
    const { scope, signal, approvals, channel } = this.#deps;
    if (signal.aborted) return false;
    const ticket = approvals.request(scope);
    const sent = await channel.critical("approval.requested", {
      session_id: scope.sessionId,
      run_id: scope.runId,
      approval_id: ticket.approvalId,
      summary: boundSummary(summary),
      expires_in_ms: ticket.remainingMs(),
    });
    if (!sent || signal.aborted) approvals.denyRun(scope.runId);
    return await ticket.decision;
  }

  /** Resolves once every call task of the run has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  async #callOne(spec: CallStep): Promise<ToolResult> {
    const tool = this.#deps.tools.get(spec.tool);
    if (tool === undefined) {
      return { outcome: "error", errorCode: "unknown_tool", text: `Unknown tool: ${spec.tool}` };
    }
    const argBytes = utf8ByteLength(JSON.stringify(spec.arguments));
    if (argBytes > CLIENT_TOOLS_LIMITS.arguments_bytes) {
      return { outcome: "error", errorCode: "invalid_arguments", text: "Arguments are too large" };
    }
    if (tool.effect === "write" && !(await this.approve(`Allow client tool ${tool.name}`))) {
      return { outcome: "denied", errorCode: null, text: "Denied" };
    }
    await this.#acquireSlot();
    try {
      if (this.#deps.signal.aborted) return { outcome: "cancelled", errorCode: null, text: "" };
      if (this.#made >= CLIENT_TOOLS_LIMITS.calls_per_run) throw new RunFailure("execution_failed");
      this.#made++;
      this.#deps.countActivity();
      const result = await this.#deps.calls.start(this.#deps.scope, tool, spec.arguments, {
        stopped: this.#deps.stopped,
      });
      await this.#deps.record(tool.name, result.outcome === "success" ? "completed" : "failed");
      return result;
    } finally {
      this.#releaseSlot();
    }
  }

  async #acquireSlot(): Promise<void> {
    while (this.#active >= CLIENT_TOOLS_LIMITS.concurrent_calls) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
    this.#active++;
  }

  #releaseSlot(): void {
    this.#active--;
    this.#waiters.shift()?.();
  }
}
