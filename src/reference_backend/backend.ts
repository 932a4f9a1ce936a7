/**
 * The backend's operations over one child's state: initialization, status, sessions,
 * turns, approvals and client tool results. Long work runs as async tasks; the read loop
 * never waits for it.
 *
 * @module
 */

import type { ErrorCode } from "../protocol/errors.ts";
import { LIMITS } from "../protocol/limits.ts";
import { BASE_CAPABILITIES, type ClientToolResultParams } from "../protocol/schemas/mod.ts";
import { ApprovalBook } from "./approvals.ts";
import { EventChannel } from "./channel.ts";
import {
  clientToolsDescriptor,
  type RegisteredTool,
  validateClientTools,
} from "./client_tool_defs.ts";
import { CallBook } from "./client_tools.ts";
import type { Method } from "../protocol/schemas/mod.ts";
import type { Outbox, ResponsePayload } from "./outbox.ts";
import { type Attachment, Sessions } from "./sessions.ts";
import { runStartup } from "./startup.ts";
import { type Admission, statusObject } from "./status.ts";
import { Run } from "./turn.ts";

/** Capabilities this backend can admit in `required_capabilities`. */
const ADMISSIBLE = new Set<string>([...BASE_CAPABILITIES, "client.tools"]);

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
}

/** One child's protocol state and operations. */
export class Backend {
  readonly #outbox: Outbox;
  readonly #options: BackendOptions;
  readonly #channel: EventChannel;
  readonly #approvals = new ApprovalBook();
  readonly #calls: CallBook;
  readonly #startupAbort = new AbortController();
  #admission: Admission = { phase: "uninitialized" };
  #negotiated = new Set<string>();
  #tools = new Map<string, RegisteredTool>();
  #sessions: Sessions | null = null;
  #init: Pending | null = null;
  #sessionOp: Pending | null = null;
  #run: Run | null = null;
  #runDone: Promise<void> | null = null;
  #selection = 1;

  /** Operate over `outbox`. */
  constructor(outbox: Outbox, options: BackendOptions) {
    this.#outbox = outbox;
    this.#options = options;
    this.#channel = new EventChannel(outbox);
    this.#calls = new CallBook((event, data) => this.#channel.critical(event, data));
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
  handle(id: string, method: Method, params: unknown, reply: Reply): void {
    const respond: Reply = (payload) => {
      if ("result" in payload) this.#outbox.checkResult(method, payload.result);
      reply(payload);
    };
    if (method === "initialize") return this.#initialize(id, params, respond);
    if (method === "status") return respond({ result: this.#status() });
    const phase = this.#admission;
    if (phase.phase === "starting") return respond(error("not_initialized"));
    if (phase.phase === "failed") return respond(error(phase.code));
    switch (method) {
      case "session.create":
      case "session.open":
        return this.#sessionWork(id, method, params as { session_id?: string }, respond);
      case "turn.start":
        return this.#turnStart(params as { session_id: string; prompt: string }, respond);
      case "turn.cancel":
        return respond(this.#turnCancel(params as { session_id: string; run_id: string }));
      case "approval.answer":
        return respond(this.#approvalAnswer(params as ApprovalAnswer));
      case "client.tool.result":
        return respond(this.#toolResult(params as ClientToolResultParams));
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
    const op = this.#sessionOp;
    if (op !== null && !op.settled) {
      op.settled = true;
      op.reply(error("operation_cancelled"));
    }
    this.#run?.cancel("shutdown");
    const done = this.#runDone;
    let finished = true;
    if (done !== null) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<false>((r) => timer = setTimeout(() => r(false), waitMs));
      finished = await Promise.race([done.then(() => true), timeout]);
      clearTimeout(timer);
    }
    await this.#sessions?.releaseAll();
    return finished;
  }

  #initialize(id: string, params: unknown, reply: Reply): void {
    if (this.admitted) return reply(error("already_initialized"));
    const { required_capabilities: required, client_tools: defs } = params as {
      required_capabilities: string[];
      client_tools?: unknown;
    };
    if (required.some((name) => !ADMISSIBLE.has(name))) {
      return reply(error("unsupported_capability"));
    }
    const negotiatedTools = required.includes("client.tools");
    const tools = negotiatedTools ? validateClientTools(defs) : [];
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
    }).then((outcome) => {
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
      });
      const result: Record<string, unknown> = {
        capabilities: negotiatedTools
          ? [...BASE_CAPABILITIES, "client.tools"]
          : [...BASE_CAPABILITIES],
        limits: { ...LIMITS },
        status: this.#status(),
      };
      if (negotiatedTools) result.descriptors = { "client.tools": clientToolsDescriptor(tools) };
      reply({ result });
    });
  }

  #status(): Record<string, unknown> {
    const run = this.#run;
    return statusObject(this.#admission, {
      sessionId: this.#sessions?.attached?.id ?? null,
      runId: run === null ? null : run.id,
      selectionRevision: `sel-${this.#selection}`,
    });
  }

  #sessionWork(
    id: string,
    method: "session.create" | "session.open",
    params: { session_id?: string },
    reply: Reply,
  ): void {
    const sessions = this.#sessions;
    if (sessions === null) return reply(error("not_initialized"));
    if (this.#run !== null || this.#sessionOp !== null) return reply(error("busy"));
    const pending: Pending = { id, reply, settled: false };
    this.#sessionOp = pending;
    const work = method === "session.create"
      ? sessions.create().then((result) => ({ ok: true as const, result }))
      : sessions.open(params.session_id ?? "");
    void work.catch(() => ({ ok: false as const, code: "session_invalid" as ErrorCode }))
      .then((outcome) => {
        if (this.#sessionOp === pending) this.#sessionOp = null;
        if (pending.settled) return;
        pending.settled = true;
        if (!outcome.ok) return reply(error(outcome.code));
        this.#selection++;
        reply({ result: outcome.result });
      });
  }

  #attachmentFor(sessionId: string): Attachment | ErrorCode {
    const attached = this.#sessions?.attached ?? null;
    if (attached === null) return "session_missing";
    if (attached.id !== sessionId) return "stale_session";
    return attached;
  }

  #turnStart(params: { session_id: string; prompt: string }, reply: Reply): void {
    const attachment = this.#attachmentFor(params.session_id);
    if (typeof attachment === "string") return reply(error(attachment));
    if (this.#run !== null || this.#sessionOp !== null) return reply(error("busy"));
    if (params.prompt.trim() === "") return reply(error("invalid_params"));
    const admission = this.#admission;
    if (admission.phase !== "ready" || this.#sessions === null) {
      return reply(error("not_initialized"));
    }
    const run = new Run({
      channel: this.#channel,
      sessions: this.#sessions,
      attachment,
      runtime: admission.runtime,
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

  #turnCancel(params: { session_id: string; run_id: string }): ResponsePayload {
    const attachment = this.#attachmentFor(params.session_id);
    if (typeof attachment === "string") return error(attachment);
    const run = this.#run;
    if (run === null || run.id !== params.run_id || run.finished) return error("stale_run");
    run.cancel("run_cancelled");
    return { result: { cancellation_requested: true } };
  }

  #approvalAnswer(params: ApprovalAnswer): ResponsePayload {
    const attachment = this.#attachmentFor(params.session_id);
    if (typeof attachment === "string") return error(attachment);
    const recorded = this.#approvals.answer({
      sessionId: params.session_id,
      runId: params.run_id,
      approvalId: params.approval_id,
    }, params.allow);
    return recorded ? { result: { recorded: true } } : error("stale_approval");
  }

  #toolResult(params: ClientToolResultParams): ResponsePayload {
    const attachment = this.#attachmentFor(params.session_id);
    if (typeof attachment === "string") return error(attachment);
    const run = this.#run;
    if (run === null || run.id !== params.run_id || run.finished) return error("stale_run");
    const outcome = this.#calls.submit(params);
    if (!outcome.ok) return error(outcome.code);
    return { result: { recorded: true, complete: outcome.complete } };
  }
}

interface ApprovalAnswer {
  session_id: string;
  run_id: string;
  approval_id: string;
  allow: boolean;
}

function error(code: ErrorCode): ResponsePayload {
  return { error: { code } };
}
