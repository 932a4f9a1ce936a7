/**
 * Tools that come from a source other than a tool module: an MCP server's
 * tools, an OpenAPI document's operations. A source turns its configuration
 * into {@link ExternalTool}s; the registry checks their definitions against
 * every `client.tools` bound exactly like a module's, and the executor runs
 * them with the same deadline, cancellation, result bounds and splitting.
 *
 * What differs from a `defineTool` module: the input schema is JSON Schema
 * (the source's own, e.g. an MCP `inputSchema`), arguments are checked by the
 * source's {@link ExternalToolSpec.validate}, and `run` talks to the source
 * (an MCP client, an HTTP request in its sandbox) instead of running the
 * tool's code in the host.
 *
 * Wiring: `ToolRegistry.fromLoaded(modules, { external })` registers them
 * after the modules; `ToolExecutor` validates with `validate`, runs `run` in
 * the host (no process sandbox: the work happens in the source), and answers
 * an {@link ExternalToolError} with its own `error_code`.
 *
 * @module
 */

import type { ToolContext, ToolEffect } from "./define.ts";
import { HostError } from "../errors/mod.ts";

/** Where an external tool comes from, as `host.ready`, `tools` and the inspector show it. */
export interface ExternalToolSource {
  /** `mcp` (an `mcpServers` entry) or `openapi` (an `openapi` entry). */
  readonly kind: "mcp" | "openapi";
  /** The config key of the server or API, e.g. `fs` in `mcpServers.fs`. */
  readonly name: string;
}

/**
 * A tool error with its own `error_code` (`^[a-z][a-z0-9_]{0,63}$`), thrown by
 * {@link ExternalToolSpec.run}: e.g. `tool_unavailable` for a dead MCP server,
 * `http_404` for an HTTP status. Its message is what the model reads. Any
 * other thrown error is answered `tool_failed` with its message.
 */
export class ExternalToolError extends Error {
  /** The `client.tool.result` `error_code`. */
  readonly code: string;
  /** `message` is model-visible: never put a secret in it. */
  constructor(code: string, message: string) {
    super(message);
    this.name = "ExternalToolError";
    this.code = code;
  }
}

/**
 * The `error_code` of an external call refused because its source needs a sign-in (an MCP
 * server signed in with `magi-tools login` answered 401 and the refresh was refused): `run`
 * and `batch` end the turn with a `host.error` (exit 2), `mcp` answers a tool error.
 */
export const SIGN_IN_REQUIRED = "sign_in_required";

/** "MCP server NAME needs a sign-in (REASON): run `magi-tools login NAME`". */
export function signInRequiredMessage(server: string, reason: string): string {
  return `MCP server ${server} needs a sign-in (${reason}): run \`magi-tools login ${server}\``;
}

/** The `host.error` of a run whose MCP server `server` refused its token during the run. */
export function signInRequiredError(server: string): HostError<"sign_in_required"> {
  return new HostError(
    "sign_in_required",
    signInRequiredMessage(server, "the server refused the token during the run"),
  );
}

/** One progress notification of a running external call (MCP `notifications/progress`). */
export interface ToolProgress {
  /** Progress so far (increases with each notification). */
  readonly progress: number;
  /** Total, when known. */
  readonly total?: number;
  /** A short human-readable message, when given. */
  readonly message?: string;
}

/** What {@link ExternalToolSpec.run} receives: the tool context plus a progress reporter. */
export interface ExternalToolContext extends Omit<ToolContext, "progress"> {
  /** Report progress; the host records it (`tool.progress`). Never throws. */
  progress(update: ToolProgress): void;
}

/** Everything a source declares for one tool. */
export interface ExternalToolSpec {
  /** `^[A-Za-z][A-Za-z0-9_-]{0,63}$`, unique among the host's tools (the source maps names to fit). */
  readonly name: string;
  /** What the model reads: 1–1024 UTF-8 bytes, no control characters except LF and TAB. */
  readonly description: string;
  /** The input JSON Schema; its root must be `type: "object"`. Sent as `input_schema`. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** `read` or `write` (write tools need approval before each call). */
  readonly effect: ToolEffect;
  /** The tool's own limit per call, 1,000–600,000 ms; also sent as `timeout_ms`. */
  readonly timeoutMs?: number;
  /** The tool's result bound, UTF-8 bytes (as `defineTool`'s `maxResultBytes`). */
  readonly maxResultBytes?: number;
  /** What a result over the bound becomes (as `defineTool`'s `overflow`). */
  readonly overflow?: "error" | "truncate" | "spill";
  /** Which source it came from. */
  readonly source: ExternalToolSource;
  /**
   * Check arguments before anything reaches the source: `null` when valid,
   * else a short model-readable reason (answered `invalid_arguments`).
   */
  validate(args: unknown): string | null;
  /**
   * Do the call. Resolves to what a tool returns (a string, or a JSON value
   * turned into text); rejects with {@link ExternalToolError} for an error with
   * its own code. Must honour `ctx.signal` (cancel, deadline, shutdown).
   */
  run(args: Record<string, unknown>, ctx: ExternalToolContext): Promise<unknown>;
}

/** Brand of {@link ExternalTool}. */
export const EXTERNAL_MARK: unique symbol = Symbol.for("magi-tools.external-tool") as never;

/** A validated, frozen external tool. */
export interface ExternalTool extends ExternalToolSpec {
  /** Brand: this object came from {@link defineExternalTool}. */
  readonly [EXTERNAL_MARK]: true;
}

/** Freeze `spec` as an {@link ExternalTool}. Bounds are checked by the registry. */
export function defineExternalTool(spec: ExternalToolSpec): ExternalTool {
  if (spec.inputSchema["type"] !== "object") {
    throw new TypeError(`Tool input_schema must have type "object" at its root: ${spec.name}`);
  }
  return Object.freeze({ ...spec, [EXTERNAL_MARK]: true as const });
}

/** Whether `value` is an {@link ExternalTool}. */
export function isExternalTool(value: unknown): value is ExternalTool {
  return typeof value === "object" && value !== null &&
    (value as Record<PropertyKey, unknown>)[EXTERNAL_MARK] === true;
}
