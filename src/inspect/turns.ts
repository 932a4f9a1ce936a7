/**
 * Turns started from the inspector page: one at a time, each exactly a
 * `run` (`runBackend`: backend started, tools registered, one turn, shutdown),
 * against the backend fixed when the inspector started. Its summary records
 * stream to the page as they are written; approvals wait for the page's
 * answer (or the backend's expiry); cancel is `turn.cancel`, as a first
 * Ctrl-C.
 *
 * @module
 */

import { DEFAULT_START_TIMEOUT_MS } from "../run/command_options.ts";
import type { AgentCommand } from "../run/agent.ts";
import {
  type ApprovalContext,
  type ApprovalDecision,
  type Approver,
  clientToolOf,
} from "../run/approvals.ts";
import type { ArgumentLine, CallApproval } from "../call/approval.ts";
import type { ConfigArgs } from "../run/command_options.ts";
import { type ApprovalPolicy, decideByPolicy } from "../call/approval_rules.ts";
import { runBackend } from "../run/backend_run.ts";
import { SourceWarnings, startConfiguredSources } from "../run/sources.ts";
import type { ApprovalRequestedData } from "../protocol/schemas/mod.ts";
import { writeStderrLine } from "../runtime/mod.ts";
import { SummaryWriter } from "../summary/writer.ts";

/** What a turn tells the page. */
export type TurnEvent =
  | { type: "turn"; state: "running"; turn: number; prompt: string; session_id: string | null }
  | { type: "turn"; state: "finished"; turn: number; exit_code: number }
  | { type: "record"; turn: number; record: unknown }
  | {
    type: "approval";
    turn: number;
    /** The backend's approval ID, or `call:<call_id>` for a write tool call about to run. */
    approval_id: string;
    summary: string;
    /** Null for a call's question (it waits until the call's own deadline). */
    expires_in_ms: number | null;
    /** A call's question: the tool and every argument field (`call/approval.ts`). */
    call?: { name: string; arguments: readonly ArgumentLine[]; hidden: number };
  };

/** Options of {@link Turns}. */
export interface TurnsOptions {
  /** The backend command (fixed at start). */
  readonly agent: AgentCommand;
  /** Working directory of the backend and the tools. */
  readonly cwd: string;
  /** Tool directories. */
  readonly toolDirs: readonly string[];
  /** The config flags (each turn starts the config's sources, as `run` does). */
  readonly config?: ConfigArgs;
  /** Receives every event of every turn. */
  readonly onEvent: (event: TurnEvent) => void;
  /** `--start-timeout`, ms: each turn's backend and sources start deadline (default 60 s). */
  readonly startTimeoutMs?: number;
  /** Approval rules (`--approve`, the config's): what they allow or deny is not put to the page. */
  readonly approvals?: ApprovalPolicy;
}

interface Pending {
  readonly resolve: (decision: ApprovalDecision) => void;
}

/** Answers approvals with the page's decision. */
class PageApprover implements Approver {
  readonly #pending = new Map<string, Pending>();
  readonly #announce: (data: ApprovalRequestedData) => void;

  readonly #announceCall: (request: CallApproval) => void;

  readonly #policy: ApprovalPolicy | undefined;

  constructor(
    announce: (data: ApprovalRequestedData) => void,
    announceCall: (request: CallApproval) => void,
    policy?: ApprovalPolicy,
  ) {
    this.#announce = announce;
    this.#announceCall = announceCall;
    this.#policy = policy;
  }

  /** The page decides every write tool call, shown with its arguments. */
  asksAtCall(): boolean {
    return true;
  }

  /** Wait for the page's answer about `request`; the call's cancel or deadline denies. */
  decideCall(request: CallApproval, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.resolve({ decision: "deny", decidedBy: "expiry" });
    const ruled = this.#policy === undefined
      ? null
      : decideByPolicy(this.#policy, request.name, request.source);
    if (ruled !== null && ruled.decision !== "ask") {
      return Promise.resolve({
        decision: ruled.decision,
        decidedBy: ruled.origin === "config" ? "config" : "flag",
        rule: ruled.rule,
      });
    }
    const id = `call:${request.callId}`;
    return new Promise<ApprovalDecision>((resolve) => {
      const done = (decision: ApprovalDecision) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", expire);
        this.#pending.delete(id);
        resolve(decision);
      };
      const expire = () => done({ decision: "deny", decidedBy: "expiry" });
      const timer = request.expiresInMs === undefined
        ? undefined
        : setTimeout(expire, request.expiresInMs);
      signal.addEventListener("abort", expire, { once: true });
      this.#pending.set(id, { resolve: done });
      this.#announceCall(request);
    });
  }

  decide(
    data: ApprovalRequestedData,
    signal?: AbortSignal,
    context?: ApprovalContext,
  ): Promise<ApprovalDecision> {
    if (signal?.aborted) return Promise.resolve({ decision: "deny", decidedBy: "expiry" });
    if (clientToolOf(data.summary, context?.clientTools ?? new Set()) !== null) {
      // The page is asked when the call arrives, with its arguments (approvals.ts).
      return Promise.resolve({ decision: "allow", decidedBy: "host" });
    }
    return new Promise<ApprovalDecision>((resolve) => {
      const done = (decision: ApprovalDecision) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", expire);
        this.#pending.delete(data.approval_id);
        resolve(decision);
      };
      const expire = () => done({ decision: "deny", decidedBy: "expiry" });
      // Answer a little before the backend's own expiry, as the terminal prompt does.
      const timer = setTimeout(expire, Math.max(0, data.expires_in_ms - 250));
      signal?.addEventListener("abort", expire, { once: true });
      this.#pending.set(data.approval_id, { resolve: done });
      this.#announce(data);
    });
  }

  /** The page's answer; false when no such approval is waiting. */
  answer(approvalId: string, allow: boolean): boolean {
    const pending = this.#pending.get(approvalId);
    if (pending === undefined) return false;
    pending.resolve({ decision: allow ? "allow" : "deny", decidedBy: "user" });
    return true;
  }
}

/** The inspector's turns: at most one running. */
export class Turns {
  readonly #options: TurnsOptions;
  #count = 0;
  #running: { cancel: AbortController; approver: PageApprover; done: Promise<void> } | null = null;

  /** Turns against `options.agent`. */
  constructor(options: TurnsOptions) {
    this.#options = options;
  }

  /** Whether a turn is running. */
  get running(): boolean {
    return this.#running !== null;
  }

  /**
   * Start a turn with `prompt` (in `sessionId`, or a new session); returns
   * its number, or null when one is already running.
   */
  start(prompt: string, sessionId: string | null): number | null {
    if (this.#running !== null) return null;
    const turn = ++this.#count;
    const { onEvent } = this.#options;
    const cancel = new AbortController();
    const approver = new PageApprover(
      (data) =>
        onEvent({
          type: "approval",
          turn,
          approval_id: data.approval_id,
          summary: data.summary,
          expires_in_ms: data.expires_in_ms,
        }),
      (request) =>
        onEvent({
          type: "approval",
          turn,
          approval_id: `call:${request.callId}`,
          summary: `Run write tool ${request.name} with these arguments`,
          expires_in_ms: request.expiresInMs ?? null,
          call: { name: request.name, arguments: request.view.lines, hidden: request.view.hidden },
        }),
      this.#options.approvals,
    );
    let partial = "";
    const decoder = new TextDecoder();
    const writer = new SummaryWriter((bytes) => {
      partial += decoder.decode(bytes, { stream: true });
      let lf: number;
      while ((lf = partial.indexOf("\n")) >= 0) {
        const line = partial.slice(0, lf);
        partial = partial.slice(lf + 1);
        if (line !== "") onEvent({ type: "record", turn, record: JSON.parse(line) });
      }
      return Promise.resolve();
    }, { lingerMs: 0 });
    onEvent({ type: "turn", state: "running", turn, prompt, session_id: sessionId });
    const warnings = new SourceWarnings();
    const config = this.#options.config ?? { config: undefined, noConfig: false, mcpConfigs: [] };
    const sources = startConfiguredSources({
      ...config,
      cwd: this.#options.cwd,
      onWarning: warnings.add,
      startTimeoutMs: this.#options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
    });
    const done = runBackend({
      sources,
      sourceWarnings: warnings,
      prompt,
      toolDirs: [...this.#options.toolDirs],
      agent: this.#options.agent,
      cwd: this.#options.cwd,
      session: sessionId ?? undefined,
      approvals: approver,
      deltas: true,
      argumentsPreview: true,
      lastMessage: undefined,
      timeoutMs: undefined,
      startTimeoutMs: this.#options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      stallTimeoutMs: 60_000,
      writer,
      signal: cancel.signal,
    }).catch((error) => {
      writeStderrLine(
        `magi-tools: ${error instanceof Error ? error.stack ?? error.message : error}`,
      );
      return 1;
    }).then(async (code) => {
      await writer.flush();
      this.#running = null;
      onEvent({ type: "turn", state: "finished", turn, exit_code: code });
    });
    this.#running = { cancel, approver, done };
    return turn;
  }

  /** Cancel the running turn (`turn.cancel`); false when none runs. */
  cancel(): boolean {
    if (this.#running === null) return false;
    this.#running.cancel.abort();
    return true;
  }

  /** Answer a waiting approval of the running turn; false when there is none with that ID. */
  answer(approvalId: string, allow: boolean): boolean {
    return this.#running?.approver.answer(approvalId, allow) ?? false;
  }

  /** Cancel the running turn and wait until it ended (backend reaped). */
  async close(): Promise<void> {
    const running = this.#running;
    if (running === null) return;
    running.cancel.abort();
    await running.done;
  }
}
