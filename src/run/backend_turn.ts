/**
 * One turn on an initialized backend connection ({@link BackendRun.turn}): a session (created,
 * or `--session` opened, waiting out `busy` while the previous turn's run cleans up), the
 * turn admitted and followed to `run.finished` (cancelled on a soft stop, given up by a
 * watchdog), every call settled, then `--last-message` and `turn.finished` with the exit
 * policy's code.
 *
 * @module
 */

import type { Clock, TimerId } from "../async/clock.ts";
import { settleWithin } from "../async/deadline.ts";
import type { LocalAgentClient } from "../client/client.ts";
import type { RequestBudgetExhausted } from "../client/errors.ts";
import type { AgentEvent } from "../client/events.ts";
import type { ToolCallSession } from "../call/client_tools.ts";
import { ProtocolError } from "../protocol/errors.ts";
import type {
  ClientToolsDescriptor,
  InitializeResult,
  Selection,
} from "../protocol/schemas/mod.ts";
import { writeStderrLine, writeTextFile } from "../runtime/mod.ts";
import type { SummaryWriter } from "../summary/writer.ts";
import { exitCode } from "./exit_codes.ts";
import { turnExit } from "./exit_policy.ts";
import { type HostFailure, osReason } from "./failure.ts";
import { HostError } from "../errors/mod.ts";
import type { BackendTurnOptions } from "./run_options.ts";
import { sessionOpenFailure } from "./session_hint.ts";
import type { StopState } from "./stop.ts";
import { runTurn, type TurnOutcome } from "./turn.ts";
import { startTurnSpan, TELEMETRY } from "../telemetry/mod.ts";

/** What a turn needs of its initialized connection (given by {@link BackendRun.turn}). */
export interface TurnConnection {
  /** The connected client. */
  readonly client: LocalAgentClient;
  /** The client's event stream (one consumer for the whole connection). */
  readonly events: AsyncIterator<AgentEvent>;
  /** The `initialize` result. */
  readonly init: InitializeResult;
  /** The negotiated `client.tools` descriptor. */
  readonly descriptor: ClientToolsDescriptor;
  /** The connection's tool-call session. */
  readonly calls: ToolCallSession;
  /** This turn's stop state. */
  readonly stop: StopState;
  /** Turns admitted on this connection before this one (a later one waits out `busy`). */
  readonly turnsBefore: number;
  /** The connection's clock (the `busy` retry's pauses and bound, the watchdog). */
  readonly clock: Clock;
  /** Called once the backend admitted this turn. */
  admitted(): void;
  /** The liveness probe's failure when the backend stalled, else null. */
  stalled(): HostFailure | null;
  /** The tool source failure that stopped the turn (a sign-in is needed), or null. */
  sourceFailure(): HostFailure | null;
  /** Why the request-ID budget ran out, or null. */
  budgetError(): RequestBudgetExhausted | null;
  /** The exit code (or the failure thrown) of a stop before the turn was admitted. */
  stoppedBeforeTurn(writer: SummaryWriter): number;
}

/**
 * A session and one turn in it on `conn`; emits the turn's records on `turn.writer`.
 * Resolves with the turn's exit code; throws on a failure (see `BackendRun.failure`).
 */
export async function backendTurn(conn: TurnConnection, turn: BackendTurnOptions): Promise<number> {
  const { client, stop } = conn;
  const { writer } = turn;
  // Every call of this turn tells its tool the attempt (`ctx.attempt`).
  conn.calls.attempt = turn.attempt ?? 1;
  const sessionId = await openSession(conn, turn);
  if (typeof sessionId === "number") return sessionId;
  const admitted = await afterCleanup(
    conn,
    () => client.turnStart(sessionId, turn.prompt, { signal: stop.hard.signal }),
    stop.hard.signal,
  );
  conn.admitted();
  const runId = admitted.run_id;
  writer.emit({
    type: "turn.started",
    session_id: sessionId,
    run_id: runId,
    ...(turn.attempt === undefined ? {} : { attempt: turn.attempt }),
  });
  const span = TELEMETRY ? startTurnSpan(sessionId, runId) : undefined;
  try {
    const outcome = await followRun(conn, turn, sessionId, runId);
    // Every call answered, or a hard stop (the listener is removed either way).
    await settleWithin(conn.calls.idle(), Infinity, { signal: stop.hard.signal });
    span?.set("magi.turn.outcome", outcome.finished.outcome);
    const exit = await finishTurn(conn, turn, { sessionId, runId, outcome });
    span?.set("magi.turn.exit_code", exit);
    return exit;
  } catch (error) {
    span?.fail("the turn failed");
    throw error;
  } finally {
    span?.end();
  }
}

/**
 * The turn's session, created or opened, and its `session` record; a stop first resolves
 * with the exit code of {@link TurnConnection.stoppedBeforeTurn}.
 */
async function openSession(
  conn: TurnConnection,
  turn: BackendTurnOptions,
): Promise<string | number> {
  const { client, stop } = conn;
  const { writer } = turn;
  const startup = AbortSignal.any([stop.soft.signal, stop.hard.signal]);
  let sessionId: string;
  try {
    if (turn.session !== undefined) {
      const session = turn.session;
      const opened = await afterCleanup(
        conn,
        () => client.sessionOpen(session, { signal: startup }),
        startup,
      );
      sessionId = opened.session_id;
      // The backend restored the session's saved selection (or kept its own and said
      // saved_selection_unavailable): show which one this turn runs with.
      const status = await client.status({ signal: startup });
      writer.emit({
        type: "session",
        session_id: sessionId,
        durable: opened.durable,
        resumed: true,
        ...(status.selection === undefined ? {} : { selection: selectionFields(status.selection) }),
        notices: opened.notices,
      });
    } else {
      const created = await afterCleanup(
        conn,
        () => client.sessionCreate({ signal: startup }),
        startup,
      );
      sessionId = created.session_id;
      writer.emit({
        type: "session",
        session_id: sessionId,
        durable: created.durable,
        resumed: false,
      });
    }
  } catch (error) {
    if (startup.aborted) return conn.stoppedBeforeTurn(writer);
    throw (turn.session === undefined ? null : sessionOpenFailure(error, turn.session)) ?? error;
  }
  if (startup.aborted) return conn.stoppedBeforeTurn(writer);
  return sessionId;
}

/**
 * The admitted run's events until `run.finished`: a soft stop sends `turn.cancel` and arms
 * the watchdog that kills the backend when `run.finished` does not follow in time.
 */
async function followRun(
  conn: TurnConnection,
  turn: BackendTurnOptions,
  sessionId: string,
  runId: string,
): Promise<TurnOutcome> {
  const { client, stop, descriptor, init, clock } = conn;
  let watchdog: TimerId | undefined;
  const removeStop = stop.onSoftStop(() => {
    client.turnCancel(sessionId, runId).catch(() => {
      // stale_run: the run already finished; a connection failure surfaces in the loop.
    });
    // The backend owes run.finished after cancel grace and cleanup; then give up.
    const wait = descriptor.limits.cancel_grace_ms + init.limits.cleanup_wait_ms + 3_000;
    watchdog = clock.setTimeout(() => stop.kill("watchdog"), wait);
  });
  try {
    return await runTurn({
      client,
      events: conn.events,
      writer: turn.writer,
      sessionId,
      runId,
      deltas: turn.deltas,
      approvals: turn.approvals,
      clientTools: new Set(conn.descriptor.tools.map((tool) => tool.name)),
      signal: stop.hard.signal,
    });
  } catch (error) {
    const stalled = conn.stalled();
    if (stalled !== null) throw stalled;
    if (stop.hardCause === "watchdog") {
      const why = stop.cause === "budget" ? " (sent because the request-ID budget ran out)" : "";
      throw new HostError(
        "backend_exited",
        `Backend did not finish the run after turn.cancel${why}`,
      );
    }
    throw error;
  } finally {
    removeStop();
    clock.clearTimeout(watchdog);
  }
}

/**
 * After `run.finished`: an exhausted request-ID budget fails the turn; else the
 * `--last-message` file is written and `turn.finished` emitted with {@link turnExit}'s code.
 */
async function finishTurn(
  conn: TurnConnection,
  turn: BackendTurnOptions,
  run: { sessionId: string; runId: string; outcome: TurnOutcome },
): Promise<number> {
  const { stop } = conn;
  const { writer } = turn;
  const finished = run.outcome.finished;
  const budgetError = conn.budgetError();
  if (stop.cause === "budget" && budgetError !== null) {
    // The run ended (cancelled, or it finished first) without every tool answered.
    throw new HostError(
      "request_budget_exhausted",
      `${budgetError.message}; the turn was cancelled (run.finished ${finished.outcome})`,
    );
  }
  const sourceFailure = conn.sourceFailure();
  if (stop.cause === "source" && sourceFailure !== null) throw sourceFailure;
  // Written before turn.finished, so the record's exit_code is the process's.
  let lastMessageUnwritable = false;
  if (turn.lastMessage !== undefined) {
    try {
      await writeTextFile(turn.lastMessage, run.outcome.lastMessage ?? "");
    } catch (error) {
      writeStderrLine(
        `magi-tools: Cannot write --last-message file: ${turn.lastMessage}: ${osReason(error)}`,
      );
      lastMessageUnwritable = true;
    }
  }
  const toolErrors = turn.toolErrors ?? null;
  const exit = turnExit({
    outcome: finished.outcome,
    stopCause: stop.cause,
    lastMessageUnwritable,
    summaryOutputFailed: writer.failed,
    toolErrors: toolErrors?.count ?? null,
  });
  if (exit.exit_reason === "tool_errors") {
    writeStderrLine(
      `magi-tools: --fail-on-tool-error: ${
        turn.label === undefined ? "" : `${turn.label}: `
      }${toolErrors?.count} tool error(s) or denial(s) in this turn: exit ${
        exitCode("run_failed")
      }`,
    );
  }
  writer.emit({
    type: "turn.finished",
    session_id: run.sessionId,
    run_id: run.runId,
    outcome: finished.outcome,
    persistence: finished.persistence,
    revision: finished.revision,
    error_code: finished.error_code,
    cancelled_by: exit.cancelled_by,
    exit_code: exit.exit_code,
    ...(exit.exit_reason === undefined ? {} : { exit_reason: exit.exit_reason }),
  });
  return exit.exit_code;
}

/**
 * `request()`, repeated while the backend answers `busy` because the previous turn on this
 * connection is still cleaning up after its `run.finished` ("another run/cleanup → busy"):
 * only after a turn ran here, with a growing pause, for at most {@link CLEANUP_BUSY_MS};
 * then (or on the first turn) `busy` is passed on. Stops when `signal` aborts.
 */
async function afterCleanup<T>(
  conn: TurnConnection,
  request: () => Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  const { clock } = conn;
  const until = clock.now() + CLEANUP_BUSY_MS;
  let pauseMs = 10;
  for (;;) {
    try {
      return await request();
    } catch (error) {
      const busy = error instanceof ProtocolError && error.code === "busy";
      if (!busy || conn.turnsBefore === 0 || signal.aborted || clock.now() >= until) {
        throw error;
      }
    }
    await settleWithin(new Promise(() => {}), pauseMs, { signal, clock });
    pauseMs = Math.min(pauseMs * 2, 200);
  }
}

/** The `session` record's view of a `status.selection`. */
function selectionFields(selection: Selection | null) {
  if (selection === null) return null;
  return {
    provider: selection.provider,
    model: selection.model,
    requested_effort: selection.requested_effort,
    effective_effort: selection.effective_effort,
  };
}

/**
 * How long a later turn on one connection waits for the backend to finish cleaning up after the
 * previous turn (it answers `busy` meanwhile).
 */
const CLEANUP_BUSY_MS = 5_000;
