/**
 * One turn's event loop: turn events → summary records, approvals answered,
 * assistant segments reconciled, until `run.finished` for the run.
 *
 * @module
 */

import type { AgentEvent } from "../client/events.ts";
import type { LocalAgentClient } from "../client/client.ts";
import { Reconciler } from "../client/reconcile.ts";
import { ProtocolError } from "../protocol/errors.ts";
import type { ApprovalRequestedData, RunFinishedData } from "../protocol/schemas/mod.ts";
import type { SummaryWriter } from "../summary/writer.ts";
import type { Approver } from "./approvals.ts";
import { endDecisionSpan, runParent, startSpan, TELEMETRY } from "../telemetry/mod.ts";

/** Options of {@link runTurn}. */
export interface TurnOptions {
  /** The connected client. */
  client: LocalAgentClient;
  /** The client's event stream (one consumer for the whole connection). */
  events: AsyncIterator<AgentEvent>;
  /** Summary output. */
  writer: SummaryWriter;
  /** Session of the run. */
  sessionId: string;
  /** The admitted run. */
  runId: string;
  /** Emit `message.delta` records. */
  deltas: boolean;
  /** Approval policy. */
  approvals: Approver;
  /** The names of this host's client tools (see `approvals.ts`). */
  clientTools?: ReadonlySet<string>;
  /** Aborts waiting (hard stop). */
  signal: AbortSignal;
}

/** What the turn produced. */
export interface TurnOutcome {
  /** The terminal event's data. */
  finished: RunFinishedData;
  /** The last reconciled assistant message, or null. */
  lastMessage: string | null;
}

/** Wait for the next event, or reject with the signal's reason. */
export function nextEvent(
  events: AsyncIterator<AgentEvent>,
  signal: AbortSignal,
): Promise<IteratorResult<AgentEvent>> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    events.next().then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Consume events until `run.finished` of `runId`. Rejects with the client's
 * failure when the connection fails, or the signal's reason on a hard stop.
 */
export async function runTurn(options: TurnOptions): Promise<TurnOutcome> {
  const { writer, runId } = options;
  const reconciler = new Reconciler();
  const approvals = new Set<Promise<void>>();
  const runEnded = new AbortController();
  let lastMessage: string | null = null;
  for (;;) {
    const next = await nextEvent(options.events, options.signal);
    if (next.done) throw options.client.failure ?? new Error("Event stream ended");
    const { event, data } = next.value;
    if (data.run_id !== runId) continue;
    switch (event) {
      case "input.persisted":
        writer.emit({
          type: "input.persisted",
          session_id: data.session_id,
          run_id: data.run_id,
          message_id: data.message_id,
          revision: data.revision,
        });
        break;
      case "message.delta":
        if (options.deltas) {
          writer.emit({
            type: "message.delta",
            run_id: data.run_id,
            message_id: data.message_id,
            part: data.part,
            text: data.text,
          });
        }
        break;
      case "message.reconcile": {
        const message = reconciler.push(data);
        if (message !== null) {
          lastMessage = message.text;
          writer.emit({
            type: "message",
            run_id: data.run_id,
            message_id: message.messageId,
            text: message.text,
            partial: message.partial,
          });
        }
        break;
      }
      case "activity":
        writer.emit({
          type: "activity",
          run_id: data.run_id,
          activity_id: data.activity_id,
          kind: data.kind,
          state: data.state,
          name: data.name,
          summary: data.summary,
        });
        break;
      case "approval.requested": {
        const task = answerApproval(options, data, runEnded.signal).finally(() =>
          approvals.delete(task)
        );
        approvals.add(task);
        break;
      }
      case "diagnostic":
        writer.emit({
          type: "diagnostic",
          run_id: data.run_id,
          code: data.code,
          summary: data.summary,
        });
        break;
      case "run.finished":
        runEnded.abort();
        await Promise.allSettled([...approvals]);
        return { finished: data, lastMessage };
      default:
        // client.tool.* are handled by the tool-call session's subscription; tool.card unused.
        break;
    }
  }
}

async function answerApproval(
  options: TurnOptions,
  data: ApprovalRequestedData,
  runEnded: AbortSignal,
): Promise<void> {
  const span = TELEMETRY
    ? startSpan("magi.approval", runParent(data.run_id), {
      "magi.approval.id": data.approval_id,
      "magi.run.id": data.run_id,
    })
    : undefined;
  let decision: Awaited<ReturnType<Approver["decide"]>> | undefined;
  try {
    decision = await options.approvals.decide(data, runEnded, {
      clientTools: options.clientTools ?? new Set(),
    });
  } finally {
    if (span !== undefined) endDecisionSpan(span, decision);
  }
  let recorded = false;
  let decidedBy = decision.decidedBy;
  if (decidedBy !== "expiry") {
    try {
      await options.client.approvalAnswer({
        session_id: data.session_id,
        run_id: data.run_id,
        approval_id: data.approval_id,
        allow: decision.decision === "allow",
      });
      recorded = true;
    } catch (error) {
      if (!(error instanceof ProtocolError)) return; // Connection failed: reported by the turn.
      // stale_approval: it expired (or the run ended) before the answer arrived.
      decidedBy = "expiry";
    }
  }
  options.writer.emit({
    type: "approval",
    run_id: data.run_id,
    approval_id: data.approval_id,
    summary: data.summary,
    decision: decidedBy === "expiry" && !recorded ? "deny" : decision.decision,
    decided_by: decidedBy,
    ...(decision.rule === undefined || decidedBy === "expiry" ? {} : { rule: decision.rule }),
    recorded,
  });
}
