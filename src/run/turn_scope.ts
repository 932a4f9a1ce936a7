/**
 * The turn scope: the phase protocol around one turn on a backend connection (`BackendRun`), shared by `run`
 * (`runBackend`) and each `batch` item. The current phase's stop state follows the summary
 * output (stdout failed: cancel) and a deadline; `--fail-on-tool-error` counts the turn's
 * tool errors; then initialize (a new connection) → turn → `failure()` on a throw →
 * `stop()` (always, or only after a failure for a connection kept for more turns).
 *
 * @module
 */

import type { SummaryWriter } from "../summary/writer.ts";
import type { BackendTurnOptions } from "./run_options.ts";
import { ToolErrorTally } from "./tool_errors.ts";

/** The phases of a backend connection the scope runs (`BackendRun` has them). */
export interface ScopedConnection {
  /** Whether more turns can run on it. */
  readonly healthy: boolean;
  /**
   * Soft-stop the current phase (its deadline expired); `startMs` when it is the start
   * deadline (initialize), so the failure can name it.
   */
  timeout(startMs?: number): void;
  /** Soft-stop the current phase when `writer` fails; returns the remover. */
  watchOutput(writer: SummaryWriter): () => void;
  /** Handshake and `host.ready`: null when ready, else the exit code of a stop; throws on a failure. */
  initialize(writer: SummaryWriter): Promise<number | null>;
  /** One turn: its exit code; throws on a failure. */
  turn(turn: BackendTurnOptions): Promise<number>;
  /** A failure's `host.error` on `writer`; resolves with its exit code. */
  failure(error: unknown, writer: SummaryWriter): Promise<number>;
  /** Shut down and reap; never throws. */
  stop(): Promise<void>;
}

/** Options of {@link runTurnScope}. */
export interface TurnScopeOptions {
  /** The turn; its writer also gets `host.ready` and any `host.error`. */
  readonly turn: Omit<BackendTurnOptions, "toolErrors">;
  /** Initialize the connection first (a new one). */
  readonly initialize: boolean;
  /**
   * Deadline, ms: of initialize and the turn together, or of the turn alone when
   * `startupTimeoutMs` is given.
   */
  readonly timeoutMs: number | undefined;
  /**
   * Deadline of initialize, ms (`--start-timeout`); the turn then gets `timeoutMs`, or, with
   * `timeoutCoversStart`, `timeoutMs` runs from the start (`run --timeout`).
   */
  readonly startupTimeoutMs?: number | undefined;
  /** `timeoutMs` covers initialize and the turn together even with `startupTimeoutMs`. */
  readonly timeoutCoversStart?: boolean;
  /** `--fail-on-tool-error`: the turn's tool errors and denials fail a completed turn. */
  readonly failOnToolError: boolean;
  /** Keep a connection that is still healthy after the turn (a batch slot); default: stop it. */
  readonly keep?: boolean;
  /** Called once initialize succeeded, before the turn. */
  readonly onReady?: () => void;
  /** Called with a failure's exit code once its `host.error` is out, before the stop. */
  readonly onFailure?: (code: number) => void;
}

/** Run one turn on `host` in the scope's phases; resolves with its exit code, never throws for backend faults. */
export async function runTurnScope(
  host: ScopedConnection,
  options: TurnScopeOptions,
): Promise<number> {
  const { writer } = options.turn;
  const arm = (ms: number | undefined) =>
    ms === undefined ? undefined : setTimeout(() => host.timeout(), ms);
  const startMs = options.initialize ? options.startupTimeoutMs : undefined;
  const startTimer = startMs === undefined
    ? undefined
    : setTimeout(() => host.timeout(startMs), startMs);
  const overall = startMs === undefined || options.timeoutCoversStart === true;
  let timer = overall ? arm(options.timeoutMs) : undefined;
  // Nobody reads the summaries any more: cancel the turn and shut down (exit 1).
  const unwatch = host.watchOutput(writer);
  const toolErrors = options.failOnToolError ? new ToolErrorTally(writer) : null;
  try {
    if (options.initialize) {
      const stopped = await host.initialize(writer);
      if (stopped !== null) return stopped;
      options.onReady?.();
      clearTimeout(startTimer);
      if (!overall) timer = arm(options.timeoutMs);
    }
    return await host.turn({ ...options.turn, toolErrors });
  } catch (error) {
    const code = await host.failure(error, writer);
    options.onFailure?.(code);
    return code;
  } finally {
    clearTimeout(startTimer);
    clearTimeout(timer);
    unwatch();
    toolErrors?.stop();
    // The backend is restarted only after it failed: a kept one serves the next turn.
    if (options.keep !== true || !host.healthy) await host.stop();
  }
}
