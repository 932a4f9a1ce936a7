/**
 * What the scripted provider's steps do inside one run: assistant segments (best-effort
 * deltas, authoritative reconciliation, the `assistant` record), client tool calls,
 * simulated built-in tools with their cards, diagnostics, titles, reasoning summaries and
 * compactions. A failed later append degrades the run's persistence instead of failing it.
 *
 * @module
 */

import { EVENT_CHUNK_BYTES } from "../../protocol/limits.ts";
import { cardContent } from "./cards.ts";
import type { EventChannel } from "./channel.ts";
import type { ToolResult } from "../client_tools/calls.ts";
import { type RunActions, RunCancelled, RunFailure } from "../provider/provider.ts";
import type { RunCalls } from "./run_calls.ts";
import type { CallStep, Step } from "../provider/scenario.ts";
import { ContentBudget } from "./segments.ts";
import { splitUtf8 } from "../../text/utf8.ts";
import type { Attachment } from "../sessions/sessions.ts";
import { boundSummary } from "./bounded_text.ts";

/** What {@link RunSteps} needs from its run. */
export interface RunStepsDeps {
  /** The run's session and run IDs. */
  scope: { session_id: string; run_id: string };
  channel: EventChannel;
  attachment: Attachment;
  calls: RunCalls;
  /** Whether the client negotiated `tool.cards` (live `tool.card` events). */
  cards: boolean;
  /** Aborted when the run stops. */
  signal: AbortSignal;
  /** Count one activity identity (throws past the run's bound). */
  countActivity: () => void;
  /** Record a failed later append (the run then reports `degraded`). */
  degrade: () => Promise<void>;
}

type BuiltinStep = Extract<Step, { kind: "builtin" }>;

/** The provider actions of one run. */
export class RunSteps implements RunActions {
  readonly #deps: RunStepsDeps;
  readonly #budget = new ContentBudget();

  /** Actions for the run `deps` describes. */
  constructor(deps: RunStepsDeps) {
    this.#deps = deps;
  }

  /** One assistant segment: budget, best-effort deltas, authoritative reconciliation, append. */
  async say(text: string): Promise<void> {
    if (!this.#budget.admit(text)) throw new RunFailure("content_limit");
    const messageId = `a-${crypto.randomUUID()}`;
    const chunks = splitUtf8(text, EVENT_CHUNK_BYTES);
    const base = { ...this.#deps.scope, message_id: messageId };
    chunks.forEach((chunk, part) => {
      if (chunk !== "") this.#deps.channel.delta("message.delta", { ...base, part, text: chunk });
    });
    for (const [part, chunk] of chunks.entries()) {
      const sent = await this.#deps.channel.critical("message.reconcile", {
        ...base,
        part,
        text: chunk,
        last_part: part === chunks.length - 1,
        partial: false,
      });
      if (!sent) throw new RunFailure("output_unavailable");
    }
    await this.#append("assistant", { message_id: messageId, text });
  }

  /** Client tool calls, started together, at most `concurrent_calls` outstanding. */
  callTools(calls: readonly CallStep[]): Promise<ToolResult[]> {
    return this.#deps.calls.callTools(calls);
  }

  /** A simulated built-in tool activity (approval first when asked), with its tool card. */
  async builtin(step: BuiltinStep): Promise<ToolResult> {
    if (
      step.approval && !(await this.#deps.calls.approve(`Allow ${step.tool}: ${step.summary}`))
    ) {
      return { outcome: "denied", errorCode: null, text: "Denied" };
    }
    if (this.#deps.signal.aborted) throw new RunCancelled();
    this.#deps.countActivity();
    const activityId = `act-${crypto.randomUUID()}`;
    const activity = { ...this.#deps.scope, activity_id: activityId, kind: "tool" };
    const summary = boundSummary(step.summary);
    const cardId = `card-${crypto.randomUUID()}`;
    await this.#deps.channel.critical("activity", {
      ...activity,
      state: "started",
      name: step.tool,
      summary,
    });
    await this.#card(cardId, activityId, step, "started");
    await this.#deps.channel.critical("activity", {
      ...activity,
      state: step.outcome,
      name: step.tool,
      summary,
    });
    const card = await this.#card(cardId, activityId, step, step.outcome);
    await this.#append("activity", {
      activity_id: activityId,
      name: step.tool,
      state: step.outcome,
      summary,
    });
    await this.#append("tool_card", {
      card_id: cardId,
      activity_id: activityId,
      state: step.outcome,
      ...card,
    });
    const ok = step.outcome === "completed";
    return {
      outcome: ok ? "success" : "error",
      errorCode: ok ? null : "tool_failed",
      text: step.output,
    };
  }

  /** Durable title metadata. */
  async title(text: string): Promise<void> {
    await this.#append("title", { title: text });
  }

  /** A stored reasoning summary with its provenance (no live event: none exists). */
  async reasoning(step: Extract<Step, { kind: "reasoning" }>): Promise<void> {
    const fields: Record<string, unknown> = {
      message_id: `rs-${crypto.randomUUID()}`,
      text: step.text,
      provider_summary: step.providerSummary,
    };
    if (step.item !== null) fields.item_id = step.item;
    await this.#append("reasoning_summary", fields);
  }

  /** A compaction: activity started/completed and a `compaction` record. */
  async compaction(step: Extract<Step, { kind: "compaction" }>): Promise<void> {
    this.#deps.countActivity();
    const base = {
      ...this.#deps.scope,
      activity_id: `act-${crypto.randomUUID()}`,
      kind: "compaction",
      name: "compaction",
      summary: "Compacting the conversation",
    };
    await this.#deps.channel.critical("activity", { ...base, state: "started" });
    await this.#deps.channel.critical("activity", { ...base, state: "completed" });
    const fields: Record<string, unknown> = { summary: step.summary };
    if (step.title !== null) fields.title = step.title;
    await this.#append("compaction", fields);
  }

  /** A diagnostic event. */
  async diagnostic(code: string, summary: string): Promise<void> {
    await this.#deps.channel.critical("diagnostic", {
      ...this.#deps.scope,
      code,
      summary: boundSummary(summary),
    });
  }

  /** The live card event (when negotiated) of a built-in step; returns the card content. */
  async #card(
    cardId: string,
    activityId: string,
    step: BuiltinStep,
    state: "started" | "completed" | "failed",
  ) {
    const card = cardContent(step, state);
    if (this.#deps.cards) {
      await this.#deps.channel.critical("tool.card", {
        ...this.#deps.scope,
        card_id: cardId,
        activity_id: activityId,
        state,
        ...card,
      });
    }
    return card;
  }

  /** Append a record of this run; a failure degrades the run's persistence. */
  async #append(type: string, fields: Record<string, unknown>): Promise<void> {
    await this.#deps.attachment.file
      .append(type, { run_id: this.#deps.scope.run_id, ...fields })
      .then(() => {}, () => this.#deps.degrade());
  }
}
