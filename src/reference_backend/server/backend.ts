/**
 * The backend's operations over one child's state: initialization, status, turns, approvals
 * and client tool results; session, history, catalog and selection operations go to the
 * session worker (`session_worker.ts`). Long work runs as async tasks; the read loop
 * never waits for it.
 *
 * @module
 */

import { settleWithin } from "../../async/deadline.ts";
import type { ErrorCode } from "../../protocol/errors.ts";
import { LIMITS } from "../../protocol/limits.ts";
import type { MethodParams } from "../../protocol/schemas/mod.ts";
import { APPROVAL_EXPIRY_ENV, ApprovalBook, approvalExpiryFrom } from "../run/approvals.ts";
import { ADMISSIBLE, advertised } from "./capabilities.ts";
import type { AdmittedRequest } from "./dispatch.ts";
import { EventChannel } from "../run/channel.ts";
import { type RegisteredTool, validateClientTools } from "../client_tools/definitions.ts";
import { CallBook } from "../client_tools/calls.ts";
import { errorPayload as error, type Outbox, type ResponsePayload } from "./outbox.ts";
import { type SelectionFields, SelectionState } from "../catalog/selection_state.ts";
import { attachmentOf, Sessions } from "../sessions/sessions.ts";
import type { LeaseTable } from "../sessions/leases.ts";
import { type BaseContext, SessionWorker } from "../worker/session_worker.ts";
import { runStartup } from "../startup/startup.ts";
import { type Admission, statusObject } from "./status.ts";
import { Run } from "../run/turn.ts";
import { observeForTurn, startupSelectionOf } from "../worker/operations.ts";

type Reply = (payload: ResponsePayload) => void;

interface Pending {
  id: string;
  reply: Reply;
  settled: boolean;
}

/** Options of {@link Backend}. */
export interface BackendOptions {
  /** The child's working directory. */
  cwd: string;
  /** Environment lookup. */
  env: (name: string) => string | undefined;
  /** The writer leases this connection takes. */
  leases: LeaseTable;
  /** Where diagnostic lines go (the child's stderr). */
  stderr: (line: string) => void;
}

/** One child's protocol state and operations. */
export class Backend {
  readonly #outbox: Outbox;
  readonly #options: BackendOptions;
  readonly #channel: EventChannel;
  readonly #approvals: ApprovalBook;
  readonly #calls: CallBook;
  readonly #startupAbort = new AbortController();
  #admission: Admission = { phase: "uninitialized" };
  #negotiated = new Set<string>();
  #tools = new Map<string, RegisteredTool>();
  #sessions: Sessions | null = null;
  #init: Pending | null = null;
  readonly #worker: SessionWorker;
  #run: Run | null = null;
  #runDone: Promise<void> | null = null;
  #selection: SelectionState | null = null;
  #startupSelection: SelectionFields | null = null;

  /** Operate over `outbox`. */
  constructor(outbox: Outbox, options: BackendOptions) {
    this.#outbox = outbox;
    this.#options = options;
    this.#channel = new EventChannel(outbox);
    this.#approvals = new ApprovalBook({
      expiryMs: approvalExpiryFrom(options.env(APPROVAL_EXPIRY_ENV)),
    });
    this.#calls = new CallBook((event, data) => this.#channel.critical(event, data));
    this.#worker = new SessionWorker({
      env: options.env,
      context: () => this.#context(),
      runActive: () => this.#run !== null,
    });
  }

  /** Whether initialization was admitted (pending, ready or failed). */
  get admitted(): boolean {
    return this.#admission.phase !== "uninitialized";
  }

  /** Negotiated capability names. */
  get negotiated(): ReadonlySet<string> {
    return this.#negotiated;
  }

  /** Run one admitted operation; `reply` is called exactly once (maybe later). */
  handle(id: string, request: AdmittedRequest, reply: Reply): void {
    const respond: Reply = (payload) => {
      if ("result" in payload && !this.#outbox.checkResult(request.method, payload.result)) return;
      reply(payload);
    };
    if (request.method === "initialize") return this.#initialize(id, request.params, respond);
    if (request.method === "status") return respond({ result: this.#status() });
    const phase = this.#admission;
    if (phase.phase === "starting") return respond(error("not_initialized"));
    if (phase.phase === "failed") return respond(error(phase.code));
    switch (request.method) {
      case "turn.start":
        return this.#turnStart(request.params, respond);
      case "turn.cancel":
        return respond(this.#turnCancel(request.params));
      case "approval.answer":
        return respond(this.#approvalAnswer(request.params));
      case "client.tool.result":
        return respond(this.#toolResult(request.params));
      case "operation.cancel":
        return respond(this.#worker.cancel(request.params.operation_id));
      case "session.create":
      case "session.open":
      case "session.list":
      case "session.discover":
      case "history.page":
      case "selection.set":
      case "model.catalog":
      case "model.catalog.status":
      case "model.refresh":
        return this.#worker.run(id, request, respond);
      default:
        return respond(error("unsupported_method"));
    }
  }

  /**
   * Stop everything for shutdown/EOF: pending initialize → `startup_cancelled`, pending
   * session work → `operation_cancelled`, active run cancelled with reason `shutdown`.
   * Resolves true when the run (if any) finished within `waitMs`.
   */
  async stop(waitMs: number): Promise<boolean> {
    this.#startupAbort.abort();
    const init = this.#init;
    if (init !== null && !init.settled) {
      init.settled = true;
      this.#admission = { phase: "failed", code: "startup_cancelled", contextId: null };
      init.reply(error("startup_cancelled"));
    }
    this.#worker.cancelAll();
    this.#run?.cancel("shutdown");
    const done = this.#runDone;
    let finished = true;
    if (done !== null) finished = await settleWithin(done, waitMs);
    await this.#sessions?.releaseAll();
    return finished;
  }

  #initialize(id: string, params: MethodParams<"initialize">, reply: Reply): void {
    if (this.admitted) return reply(error("already_initialized"));
    const { required_capabilities: required, client_tools: defs } = params;
    if (required.some((name) => !ADMISSIBLE.has(name))) {
      return reply(error("unsupported_capability"));
    }
    const tools = required.includes("client.tools") ? validateClientTools(defs) : [];
    if (tools === null) return reply(error("invalid_params"));
    this.#admission = { phase: "starting" };
    this.#negotiated = new Set(required);
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
    const pending: Pending = { id, reply, settled: false };
    this.#init = pending;
    void runStartup({
      cwd: this.#options.cwd,
      env: this.#options.env,
      signal: this.#startupAbort.signal,
      stderr: this.#options.stderr,
    }).then(async (outcome) => {
      const startupSelection = outcome.ok
        ? await startupSelectionOf(outcome.runtime, this.#options.env, this.#startupAbort.signal)
        : null;
      if (pending.settled) return;
      pending.settled = true;
      if (!outcome.ok) {
        this.#admission = { phase: "failed", code: outcome.code, contextId: outcome.contextId };
        return reply(error(outcome.code));
      }
      const runtime = outcome.runtime;
      this.#admission = { phase: "ready", runtime };
      this.#sessions = new Sessions({
        mcHome: runtime.mcHome,
        cwd: runtime.cwd,
        instanceId: this.#outbox.instanceId,
        leases: this.#options.leases,
      });
      this.#startupSelection = startupSelection as SelectionFields;
      this.#selection = new SelectionState(startupSelection as SelectionFields);
      const { capabilities, descriptors } = advertised(required, tools);
      const result: Record<string, unknown> = {
        capabilities,
        limits: { ...LIMITS, approval_expiry_ms: this.#approvals.expiryMs },
        status: this.#status(),
      };
      if (Object.keys(descriptors).length > 0) result.descriptors = descriptors;
      reply({ result });
    });
  }

  #status(): Record<string, unknown> {
    const run = this.#run;
    return statusObject(this.#admission, {
      sessionId: this.#sessions?.attached?.id ?? null,
      runId: run === null ? null : run.id,
      selection: this.#selection?.toObject() ?? null,
    });
  }

  /** The child's part of a worker operation's context, or null before readiness. */
  #context(): BaseContext | null {
    const admission = this.#admission;
    const sessions = this.#sessions;
    const selection = this.#selection;
    const startup = this.#startupSelection;
    if (
      admission.phase !== "ready" || sessions === null || selection === null || startup === null
    ) {
      return null;
    }
    return {
      runtime: admission.runtime,
      sessions,
      selection,
      startup,
      env: this.#options.env,
      cards: this.#negotiated.has("tool.cards"),
    };
  }

  /** Turn admission: a changed effort observation → `stale_selection` (see workers.ts). */
  #admitTurn(): Promise<ErrorCode | null> {
    const context = this.#worker.contextFor(new AbortController().signal);
    return context === null ? Promise.resolve(null) : observeForTurn(context);
  }

  #turnStart(params: MethodParams<"turn.start">, reply: Reply): void {
    const attachment = attachmentOf(this.#sessions, params.session_id);
    if (typeof attachment === "string") return reply(error(attachment));
    if (this.#run !== null || this.#worker.busy) return reply(error("busy"));
    if (params.prompt.trim() === "") return reply(error("invalid_params"));
    const admission = this.#admission;
    if (admission.phase !== "ready" || this.#sessions === null) {
      return reply(error("not_initialized"));
    }
    const selected = this.#selection?.fields;
    const runtime = selected === undefined
      ? admission.runtime
      : { ...admission.runtime, provider: selected.provider, model: selected.model };
    const run = new Run({
      channel: this.#channel,
      sessions: this.#sessions,
      attachment,
      runtime,
      cards: this.#negotiated.has("tool.cards"),
      admit: () => this.#admitTurn(),
      tools: this.#tools,
      approvals: this.#approvals,
      calls: this.#calls,
    });
    this.#run = run;
    reply({ result: { run_id: run.id, accepted: true } });
    this.#runDone = run.execute(params.prompt).catch(() => {}).finally(() => {
      if (this.#run === run) this.#run = null;
    });
  }

  #turnCancel(params: MethodParams<"turn.cancel">): ResponsePayload {
    const attachment = attachmentOf(this.#sessions, params.session_id);
    if (typeof attachment === "string") return error(attachment);
    const run = this.#run;
    if (run === null || run.id !== params.run_id || run.finished) return error("stale_run");
    run.cancel("run_cancelled");
    return { result: { cancellation_requested: true } };
  }

  #approvalAnswer(params: MethodParams<"approval.answer">): ResponsePayload {
    const attachment = attachmentOf(this.#sessions, params.session_id);
    if (typeof attachment === "string") return error(attachment);
    const recorded = this.#approvals.answer({
      sessionId: params.session_id,
      runId: params.run_id,
      approvalId: params.approval_id,
    }, params.allow);
    return recorded ? { result: { recorded: true } } : error("stale_approval");
  }

  #toolResult(params: MethodParams<"client.tool.result">): ResponsePayload {
    const attachment = attachmentOf(this.#sessions, params.session_id);
    if (typeof attachment === "string") return error(attachment);
    const run = this.#run;
    if (run === null || run.id !== params.run_id || run.finished) return error("stale_run");
    const outcome = this.#calls.submit(params);
    if (!outcome.ok) return error(outcome.code);
    return { result: { recorded: true, complete: outcome.complete } };
  }
}
