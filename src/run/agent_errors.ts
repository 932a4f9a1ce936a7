/**
 * What `run` says when the backend command cannot be started: the
 * `host.error` message (stdout: the command's basename only, as `host.ready`)
 * and one stderr line with the full command as given, so a typo is visible.
 *
 * @module
 */

import { SpawnError } from "../runtime/mod.ts";
import type { AgentCommand } from "./agent.ts";
import { osReason } from "./failure.ts";

/** The two messages of a backend that could not be started. */
export interface BackendStartFailure {
  /** For the `host.error` record: the basename and the reason. */
  readonly message: string;
  /** For stderr: the full command line as given and where it came from. */
  readonly stderrLine: string;
}

/**
 * Describe why `agent` could not be started (`error` from the spawn).
 *
 * @example
 * ```ts
 * import { backendStartFailure } from "./agent_errors.ts";
 * import { SpawnError } from "../runtime/mod.ts";
 * const failure = backendStartFailure({
 *   command: "/nonexistent/magi-code",
 *   args: ["serve", "--stdio"],
 *   source: "flag",
 *   label: "magi-code",
 *   given: "/nonexistent/magi-code serve --stdio",
 * }, new SpawnError("/nonexistent/magi-code"));
 * console.assert(failure.stderrLine.includes("/nonexistent/magi-code serve --stdio"));
 * ```
 */
export function backendStartFailure(agent: AgentCommand, error: unknown): BackendStartFailure {
  const cause = error instanceof SpawnError ? error.cause : error;
  const reason = cause === undefined || isNotFound(cause) ? "not found" : osReason(cause);
  const from = agent.source === "flag"
    ? "--agent"
    : agent.source === "env"
    ? "MAGI_CODE_AGENT"
    : agent.source === "path"
    ? "PATH"
    : "the reference backend";
  const line = agent.given ?? [agent.command, ...agent.args].join(" ");
  return {
    message: `Cannot start the backend command: ${agent.label}: ${reason}`,
    stderrLine: `magi-tools: backend command ${reason}: ${agent.command} (from ${from}: ${line})`,
  };
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || (error instanceof Error && error.name === "NotFound");
}
