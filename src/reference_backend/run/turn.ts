/**
 * One run: input persistence, the scripted provider's steps (`run_steps.ts`), cleanup of
 * calls and approvals, the outcome record and exactly one `run.finished` after all of it.
 *
 * @module
 */

import type { ErrorCode } from "../../protocol/errors.ts";
import { RUN_ACTIVITIES } from "../../protocol/limits.ts";
import type { ApprovalBook } from "./approvals.ts";
import type { EventChannel } from "./channel.ts";
import type { RegisteredTool } from "../client_tools/definitions.ts";
import type { CallBook, CancelReason } from "../client_tools/calls.ts";
import { planTurn } from "../provider/planner.ts";
import { executeSteps, RunCancelled, RunFailure } from "../provider/provider.ts";
import { pickTurn, type Step } from "../provider/scenario.ts";
import { RunCalls } from "./run_calls.ts";
import { RunSteps } from "./run_steps.ts";
import type { Attachment, Sessions } from "../sessions/sessions.ts";
import type { Runtime } from "../startup/startup.ts";
import { SCRIPTED_PROVIDER } from "../catalog/providers.ts";
import { boundSummary } from "./bounded_text.ts";

/** What a run needs from the child. */
export interface RunDeps {
  channel: EventChannel;
  sessions: Sessions;
  attachment: Attachment;
  runtime: Runtime;
  tools: ReadonlyMap<string, RegisteredTool>;
  approvals: ApprovalBook;
  calls: CallBook;
  /** Whether the client negotiated `tool.cards` (live `tool.card` events). */
  cards: boolean;
  /**
   * Admission check before the input append (e.g. a changed effort observation →
   * `stale_selection`): a code fails the run with persistence `not_started`.
   */
  admit?: () => Promise<ErrorCode | null>;
}

type Outcome = "completed" | "cancelled" | "failed";

/** One admitted run. */
export class Run {
  /** Run ID (UUID). */
  readonly id: string = crypto.randomUUID();
  readonly #deps: RunDeps;
  readonly #abort = new AbortController();
  readonly #calls: RunCalls;
  readonly #steps: RunSteps;
  #cancelReason: CancelReason | null = null;
  #degraded = false;
  #finished = false;
  #activities = 0;

  /** Prepare a run on `deps.attachment`. */
  constructor(deps: RunDeps) {
    this.#deps = deps;
    this.#calls = new RunCalls({
      scope: { sessionId: deps.attachment.id, runId: this.id },
      channel: deps.channel,
      approvals: deps.approvals,
      calls: deps.calls,
      tools: deps.tools,
      signal: this.#abort.signal,
      stopped: () => this.#stopped(),
      countActivity: () => this.#countActivity(),
      record: (name, state) =>
        deps.attachment.file
          .append("activity", {
            run_id: this.id,
            name,
            state,
            summary: boundSummary(`Client tool ${name}`),
          })
          .then(() => {}, () => this.#degrade()),
    });
    this.#steps = new RunSteps({
      scope: this.#scope(),
      channel: deps.channel,
      attachment: deps.attachment,
      calls: this.#calls,
      cards: deps.cards,
      signal: this.#abort.signal,
      countActivity: () => this.#countActivity(),
      degrade: () => this.#degrade(),
    });
  }

  /** Session of the run. */
  get sessionId(): string {
    return this.#deps.attachment.id;
  }

  /** Whether `run.finished` has been enqueued. */
  get finished(): boolean {
    return this.#finished;
  }

  /** Execute `prompt`; resolves after `run.finished` was enqueued. */
  async execute(prompt: string): Promise<void> {
    const { attachment, sessions, channel } = this.#deps;
    const messageId = `u-${crypto.randomUUID()}`;
    const refused = await this.#deps.admit?.().catch(() => null) ?? null;
    if (refused !== null) {
      await this.#finish("failed", refused, "not_started", null);
      return;
    }
    let revision: string;
    try {
      if (!(await sessions.ensureWritable(attachment))) throw new Error("Lease unavailable");
      revision = await attachment.file.append("user", {
        run_id: this.id,
        message_id: messageId,
        text: prompt,
      });
      sessions.markDurable(attachment);
    } catch {
      await this.#finish("failed", "persistence_failed", "not_started", null);
      return;
    }
    let outcome: Outcome = "completed";
    let errorCode: ErrorCode | null = null;
    try {
      const sent = await channel.critical("input.persisted", {
        ...this.#scope(),
        message_id: messageId,
        durable: true,
        revision,
      });
      if (!sent) throw new RunFailure("output_unavailable");
      if (this.#deps.runtime.provider !== SCRIPTED_PROVIDER) {
        throw new RunFailure("execution_failed");
      }
      await executeSteps(this.#plan(prompt), this.#steps, this.#abort.signal);
      if (channel.failed) throw new RunFailure("output_unavailable");
    } catch (error) {
      if (error instanceof RunFailure) [outcome, errorCode] = ["failed", error.code];
      else if (error instanceof RunCancelled) outcome = "cancelled";
      else [outcome, errorCode] = ["failed", "execution_failed"];
    }
    if (outcome === "completed" && channel.failed) {
      [outcome, errorCode] = ["failed", "output_unavailable"];
    }
    await this.#cleanup();
    let persistence: "durable" | "degraded" = this.#degraded ? "degraded" : "durable";
    let finalRevision: string | null = null;
    try {
      finalRevision = await attachment.file.append("run_finished", {
        run_id: this.id,
        outcome,
        error_code: errorCode,
      });
    } catch {
      persistence = "degraded";
    }
    await this.#finish(
      outcome,
      errorCode,
      persistence,
      persistence === "durable" ? finalRevision : null,
    );
  }

  /** Request cancellation (idempotent); calls are cancelled with `reason`. */
  cancel(reason: "run_cancelled" | "shutdown"): void {
    if (this.#finished || this.#cancelReason !== null) return;
    this.#cancelReason = reason;
    this.#abort.abort();
    this.#deps.calls.cancelRun(this.id, reason, { grace: reason !== "shutdown" });
    this.#deps.approvals.denyRun(this.id);
  }

  #plan(prompt: string): Step[] {
    const scenario = this.#deps.runtime.scenario;
    const turn = scenario === null ? null : pickTurn(scenario, prompt);
    return turn?.steps ?? planTurn(prompt, [...this.#deps.tools.keys()]);
  }

  /** Count one activity identity; past `run_activities` the run fails. */
  #countActivity(): void {
    if (++this.#activities > RUN_ACTIVITIES) throw new RunFailure("execution_failed");
  }

  /** Record a failed later append: the run can no longer claim durable history. */
  async #degrade(): Promise<void> {
    if (this.#degraded) return;
    this.#degraded = true;
    await this.#deps.channel.critical("diagnostic", {
      ...this.#scope(),
      code: "persistence_degraded",
      summary: "A history append failed; this run's history is incomplete",
    });
  }

  /** How outstanding calls are stopped once the run is aborted, or null while it runs. */
  #stopped(): { reason: CancelReason; grace: boolean } | null {
    if (!this.#abort.signal.aborted) return null;
    const reason: CancelReason = this.#cancelReason ?? "run_failed";
    return { reason, grace: reason !== "shutdown" };
  }

  async #cleanup(): Promise<void> {
    this.#abort.abort();
    const stop = this.#stopped();
    if (stop !== null) this.#deps.calls.cancelRun(this.id, stop.reason, { grace: stop.grace });
    this.#deps.approvals.denyRun(this.id);
    await this.#calls.settled();
  }

  async #finish(
    outcome: Outcome,
    errorCode: ErrorCode | null,
    persistence: "durable" | "degraded" | "not_started",
    revision: string | null,
  ): Promise<void> {
    await this.#deps.channel.terminal("run.finished", {
      ...this.#scope(),
      outcome,
      persistence,
      revision,
      error_code: errorCode,
    });
    this.#finished = true;
  }

  #scope(): { session_id: string; run_id: string } {
    return { session_id: this.sessionId, run_id: this.id };
  }
}
