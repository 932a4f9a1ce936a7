/**
 * The single session worker of one child: `session.create`/`open`/`list`,
 * `session.discover`, `history.page`, `model.catalog(.status)`, `model.refresh` and
 * `selection.set` run here one at a time (`busy` while another of them or a run is
 * active), `operation.cancel` and shutdown settle the pending one with
 * `operation_cancelled`. The catalog snapshot and the `session.list` snapshot live here.
 *
 * Test hook: `MAGI_OPERATION_DELAY_MS` delays every operation by that many ms
 * (cancellable), so tests can reach `operation.cancel`, `busy` and `operation_cancelled`.
 *
 * @module
 */

import type { ErrorCode } from "../../protocol/errors.ts";
import { CatalogState } from "../catalog/catalog_pages.ts";
import { SessionListing } from "../sessions/listing.ts";
import { OperationSlot } from "./operation_slot.ts";
import { errorPayload as error, type ResponsePayload } from "../server/outbox.ts";
import { attachmentOf } from "../sessions/sessions.ts";
import type { RequestOf } from "../server/dispatch.ts";
import {
  catalogStatusWork,
  catalogWork,
  discoverWork,
  historyWork,
  listWork,
  refreshWork,
  selectionToRestore,
  selectWork,
  type WorkContext,
} from "./operations.ts";

/** Test hook: delay every session-worker operation by this many ms (cancellable). */
const DELAY_ENV = "MAGI_OPERATION_DELAY_MS";

/** The methods {@link SessionWorker.run} serves. */
export type WorkerMethod =
  | "session.create"
  | "session.open"
  | "session.list"
  | "session.discover"
  | "history.page"
  | "selection.set"
  | "model.catalog"
  | "model.catalog.status"
  | "model.refresh";

/** What a worker operation needs from the child besides the worker's own state. */
export type BaseContext = Omit<WorkContext, "catalog" | "listing" | "signal">;

/** Options of {@link SessionWorker}. */
export interface SessionWorkerOptions {
  /** Environment lookup (the delay hook). */
  env: (name: string) => string | undefined;
  /** The child's part of a work context, or null before readiness. */
  context: () => BaseContext | null;
  /** Whether a run is active (operations then answer `busy`). */
  runActive: () => boolean;
}

type Reply = (payload: ResponsePayload) => void;
/** Answer the operation now, keeping the worker busy until its work ends; false if cancelled. */
type Answer = (payload: ResponsePayload) => boolean;

/** The session worker of one child. */
export class SessionWorker {
  readonly #options: SessionWorkerOptions;
  readonly #slot = new OperationSlot();
  readonly #catalog = new CatalogState();
  readonly #listing = new SessionListing();

  /** A worker over the child state `options` gives access to. */
  constructor(options: SessionWorkerOptions) {
    this.#options = options;
  }

  /** Whether an operation (or its cleanup) occupies the worker. */
  get busy(): boolean {
    return this.#slot.busy;
  }

  /** The full context of an operation, or null before readiness. */
  contextFor(signal: AbortSignal): WorkContext | null {
    const base = this.#options.context();
    if (base === null) return null;
    return { ...base, catalog: this.#catalog, listing: this.#listing, signal };
  }

  /** Serve request `id`; `reply` is called exactly once (maybe later). */
  run(id: string, request: RequestOf<WorkerMethod>, reply: Reply): void {
    switch (request.method) {
      case "session.create":
        return this.#schedule(id, reply, (c, answer) => attach(c, null, answer));
      case "session.open": {
        const sessionId = request.params.session_id;
        return this.#schedule(id, reply, (c, answer) => attach(c, sessionId, answer));
      }
      case "history.page":
      case "selection.set": {
        const sessions = this.#options.context()?.sessions ?? null;
        const attachment = attachmentOf(sessions, request.params.session_id);
        if (typeof attachment === "string") return reply(error(attachment));
        if (request.method === "history.page") {
          const params = request.params;
          return this.#schedule(id, reply, (c) => historyWork(c, attachment, params));
        }
        const params = request.params;
        return this.#schedule(id, reply, (c) => selectWork(c, attachment, params));
      }
      case "session.list": {
        const params = request.params;
        return this.#schedule(id, reply, (c) => listWork(c, params));
      }
      case "session.discover": {
        const params = request.params;
        return this.#schedule(id, reply, (c) => discoverWork(c, params));
      }
      case "model.catalog": {
        const params = request.params;
        return this.#schedule(id, reply, (c) => catalogWork(c, params));
      }
      case "model.catalog.status":
        return this.#schedule(id, reply, (c) => catalogStatusWork(c));
      case "model.refresh": {
        const params = request.params;
        return this.#schedule(id, reply, (c) => refreshWork(c, params));
      }
    }
  }

  /** `operation.cancel {operation_id}`. */
  cancel(operationId: string): ResponsePayload {
    if (!this.#slot.cancel(operationId)) return error("stale_operation");
    return { result: { cancellation_requested: true } };
  }

  /** Shutdown/EOF: answer the pending operation `operation_cancelled`. */
  cancelAll(): void {
    this.#slot.cancelAll();
  }

  /**
   * Run `work` in the slot: `busy` while a run or another operation is active;
   * `operation.cancel` and shutdown settle it with `operation_cancelled`.
   */
  #schedule(
    id: string,
    reply: Reply,
    work: (context: WorkContext, answer: Answer) => Promise<ResponsePayload>,
  ): void {
    if (this.#options.runActive() || this.#slot.busy) return reply(error("busy"));
    const operation = this.#slot.begin(id, reply);
    const context = this.contextFor(operation.signal);
    if (context === null) return this.#slot.finish(operation, error("not_initialized"));
    const answer: Answer = (payload) => this.#slot.answer(operation, payload);
    const delay = Number(this.#options.env(DELAY_ENV) ?? 0);
    void pause(Number.isFinite(delay) ? delay : 0, operation.signal)
      .then(() => operation.signal.aborted ? error("operation_cancelled") : work(context, answer))
      .catch(() => error("operation_cancelled"))
      .then((payload) => this.#slot.finish(operation, payload));
  }
}

/**
 * `session.create` (`sessionId` null) / `session.open` of `sessionId`, restoring the saved selection of an opened session.
 * The session is read, leased and its selection worked out first; then, in one synchronous
 * step, the cancellation is checked, the attachment and selection switch and the answer is
 * written — so an open that `operation.cancel` or shutdown answered `operation_cancelled`
 * never attaches, keeps no lease and leaves the previous attachment current.
 */
async function attach(
  context: WorkContext,
  sessionId: string | null,
  answer: Answer,
): Promise<ResponsePayload> {
  const { sessions, signal } = context;
  const prepared = sessionId === null
    ? { ok: true as const, pending: sessions.prepareCreate() }
    : await sessions.prepareOpen(sessionId, signal).catch(() => ({
      ok: false as const,
      code: "session_invalid" as ErrorCode,
    }));
  if (!prepared.ok) return error(signal.aborted ? "operation_cancelled" : prepared.code);
  const { pending } = prepared;
  const plan = await selectionToRestore(context, pending.preferences).catch(() => null);
  const payload = {
    result: { ...pending.result, notices: [...pending.result.notices, ...plan?.notices ?? []] },
  };
  if (signal.aborted) {
    await pending.discard();
    return error("operation_cancelled");
  }
  // One synchronous step: nothing can cancel between the check above and the answer.
  const released = pending.commit();
  if (plan !== null) context.selection.replace(plan.fields);
  answer(payload);
  await released;
  return payload;
}

/** Wait `ms` (resolves early when `signal` aborts). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
