/**
 * A front door without a backend: run one registered tool exactly as a
 * `client.tool.call` would run it (used by the `call` command and the
 * `inspect` page). The call goes through the same {@link ToolExecutor} —
 * zod validation, deadline and the tool's own timeout, the per-tool sandbox
 * and hard kill, result bounds and splitting — with the default
 * `client.tools` limits ({@link CLIENT_TOOLS_LIMITS}), since no backend
 * announced others.
 *
 * What the backend would check before emitting the call is checked here
 * first and thrown as a `usage` host error (the caller's mistake, not a
 * tool result): an unknown tool name, arguments that are not a JSON object,
 * or arguments over `arguments_bytes`.
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { deliveryMarginMs, type ToolCallResult, type ToolExecutor } from "./executor.ts";
import type { ToolRegistry } from "../toolset/registry.ts";

/** The call cannot be made (unknown tool, arguments the backend would not send): a usage error. */
function callError(message: string): HostError<"usage"> {
  return new HostError("usage", message);
}

/** Options of {@link directCall}. */
export interface DirectCallOptions {
  /**
   * The call's deadline, ms, instead of the tool's `timeout_ms` (default
   * `call_timeout_ms`). The tool's own `timeoutMs` still applies when shorter.
   */
  timeoutMs?: number;
  /** Cancels the call (the answer is then `cancelled`). */
  signal?: AbortSignal;
  /** Call ID handed to the tool as `ctx.callId`; default `call-<uuid>`. */
  callId?: string;
}

/** A finished direct call: the executor's result and the call's identity. */
export interface DirectCallResult extends ToolCallResult {
  /** The call ID the tool saw. */
  readonly callId: string;
  /** Tool name. */
  readonly name: string;
  /** The registered `tool_id`. */
  readonly toolId: string;
  /** The deadline the call ran under, ms. */
  readonly deadlineMs: number;
}

/** Session and run IDs a direct call carries (there is no backend session). */
export const DIRECT_SESSION_ID = "direct";

/**
 * The backend `deadline_ms` under which the executor stops the tool after
 * exactly `ms` (it keeps back a delivery margin that has no use here).
 */
function deadlineFor(ms: number): number {
  // margin(b) = min(b/2, 500): b - margin(b) = ms  ⇔  b = 2·ms (ms < 500) or ms + 500.
  const backend = ms < 500 ? ms * 2 : ms + 500;
  return backend - deliveryMarginMs(backend) === ms ? backend : ms;
}

/**
 * Run tool `name` with `args` through `executor` (built over `registry` with
 * {@link CLIENT_TOOLS_LIMITS}); resolves with the result, never with a tool
 * failure as a rejection. Throws a `usage` host error when the call cannot
 * be made.
 *
 * @example
 * ```ts ignore
 * const executor = new ToolExecutor(registry, { limits: CLIENT_TOOLS_LIMITS, cwd: Deno.cwd() });
 * const result = await directCall(executor, registry, "text_stats", { text: "a b" });
 * console.log(result.outcome, result.text);
 * await executor.close();
 * ```
 */
export async function directCall(
  executor: ToolExecutor,
  registry: ToolRegistry,
  name: string,
  args: unknown,
  options: DirectCallOptions = {},
): Promise<DirectCallResult> {
  const entry = registry.get(name);
  if (entry === undefined) {
    const known = registry.tools.map((t) => t.definition.name).join(", ") || "none";
    throw callError(`Unknown tool: ${name} (tools: ${known})`);
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw callError("Arguments must be a JSON object");
  }
  const bytes = utf8ByteLength(JSON.stringify(args));
  if (bytes > CLIENT_TOOLS_LIMITS.arguments_bytes) {
    throw callError(
      `Arguments exceed ${CLIENT_TOOLS_LIMITS.arguments_bytes} serialized bytes: ${bytes}`,
    );
  }
  const deadlineMs = options.timeoutMs ?? entry.definition.timeout_ms ??
    CLIENT_TOOLS_LIMITS.call_timeout_ms;
  const callId = options.callId ?? `call-${crypto.randomUUID()}`;
  const result = await executor.execute({
    callId,
    name,
    toolId: entry.toolId,
    arguments: args,
    deadlineMs: deadlineFor(deadlineMs),
    sessionId: DIRECT_SESSION_ID,
    runId: DIRECT_SESSION_ID,
  }, options.signal ?? new AbortController().signal);
  return { ...result, callId, name, toolId: entry.toolId, deadlineMs };
}
