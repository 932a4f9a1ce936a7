/**
 * One short backend connection for the browsing commands: spawn the agent, `initialize`
 * with the capabilities the command needs, run the command body, then `shutdown` and reap.
 * Failures become a `host.error` record and an exit code (as for `run`).
 *
 * @module
 */

import { LocalAgentClient } from "../client/client.ts";
import { StaleSnapshot } from "../client/errors.ts";
import { ProtocolError } from "../protocol/errors.ts";
import { DEFAULT_START_TIMEOUT_MS } from "./command_options.ts";
import type { InitializeResult } from "../protocol/schemas/mod.ts";
import { spawnChild, SpawnError } from "../runtime/mod.ts";
import type { AgentCommand } from "./agent.ts";
import type { BrowseOutput } from "./browse_records.ts";
import { HostError } from "../errors/mod.ts";
import { classify, hostErrorRecord, startDeadlineFailure } from "./failure.ts";
import { closeBackend } from "./shutdown.ts";
import { StopState } from "./stop.ts";

/** How to reach the backend. */
export interface ConnectOptions {
  /** The backend command. */
  agent: AgentCommand;
  /** Working directory of the backend. */
  cwd: string;
  /** `required_capabilities` of `initialize`. */
  capabilities: readonly string[];
  /**
   * Capabilities to require too when the backend supports them: `initialize` asks for them
   * first and, answered `unsupported_capability`, again without them (a preflight failure
   * leaves initialization open).
   */
  optional?: readonly string[];
  /** Where records go. */
  out: BrowseOutput;
  /** Deadline of the backend's `initialize` answer, ms (default {@link DEFAULT_START_TIMEOUT_MS}). */
  startTimeoutMs?: number;
}

/** Run `body` against a freshly started backend; resolves with the exit code. */
export async function withAgent(
  options: ConnectOptions,
  body: (
    client: LocalAgentClient,
    init: InitializeResult,
    negotiated: ReadonlySet<string>,
  ) => Promise<number>,
): Promise<number> {
  const { out } = options;
  let child;
  try {
    child = spawnChild(options.agent.command, options.agent.args, { cwd: options.cwd });
  } catch (error) {
    const message = error instanceof SpawnError ? error.message : String(error);
    const record = hostErrorRecord(new HostError("backend_unavailable", message), false);
    out.record(record);
    return record.exit_code;
  }
  const client = new LocalAgentClient(child);
  let started = false;
  let code: number;
  try {
    let wanted = [...options.capabilities, ...(options.optional ?? [])];
    const startMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(startMs);
    const initialize = () =>
      client.initialize({ required_capabilities: wanted }, { signal: deadline }).catch(
        (error) => {
          if (!deadline.aborted) throw error;
          throw startDeadlineFailure(startMs, "--start-timeout");
        },
      );
    let init: InitializeResult;
    try {
      init = await initialize();
    } catch (error) {
      if (
        !(error instanceof ProtocolError && error.code === "unsupported_capability") ||
        wanted.length === options.capabilities.length
      ) throw error;
      wanted = [...options.capabilities];
      init = await initialize();
    }
    started = true;
    code = await body(client, init, new Set(wanted));
  } catch (error) {
    const failure = error instanceof StaleSnapshot
      ? new HostError("request_failed", error.message)
      : classify(client.failure ?? error);
    // A request that fails before initialize answered is a startup failure.
    const record = hostErrorRecord(
      !started && failure.code === "request_failed"
        ? new HostError("startup_failed", failure.message)
        : failure,
      started,
    );
    out.record(record);
    code = record.exit_code;
  } finally {
    await closeBackend(client, child, new StopState());
  }
  return code;
}
