/**
 * What a tool module declares, as types: the spec {@link ToolSpec} that
 * `defineTool` (`define.ts`) takes, with its effect, permissions, annotations
 * and result bounds, the {@link ToolContext} a running tool gets, and
 * {@link ToolInfo}, what the host knows of a tool without its code; with
 * {@link annotationsOf}, the annotation set an effect implies.
 *
 * @module
 */

import type { z } from "zod";
import { MIN_RESULT_BYTES } from "../protocol/limits.ts";

/** What a result over a tool's `maxResultBytes` becomes (see {@link ToolSpec.overflow}). */
export type ResultOverflow = "error" | "truncate" | "spill";

export { MIN_RESULT_BYTES };

/** `read`: no side effects, runs without approval. `write`: the backend asks for approval first. */
export type ToolEffect = "read" | "write";

/**
 * One permission: `false` or omitted denies; a list allows only those entries
 * (paths for read/write, `host:port` for net, variable names for env, commands
 * for run, interface names for sys, libraries for ffi); `true` allows
 * everything, and is accepted for a process-isolated tool only for `net` and
 * `sys` (an inline tool may use it anywhere: it widens the host's own flags).
 */
export type PermissionGrant = boolean | readonly string[];

/**
 * What a tool may touch, in the shape of Deno's permission flags.
 *
 * A process-isolated tool (the default) runs in its own `deno run` with
 * exactly these `--allow-*` flags and nothing else; any other access fails
 * with `Deno.errors.NotCapable` and the call is answered
 * `permission_denied`. An inline tool runs with the host's permissions; its
 * declaration is added to the flags the host needs (`denoFlagsForHost`).
 */
export interface ToolPermissions {
  /** File system reads. */
  read?: PermissionGrant;
  /** File system writes. */
  write?: PermissionGrant;
  /** Network, as `host` or `host:port`. */
  net?: PermissionGrant;
  /** Environment variables. */
  env?: PermissionGrant;
  /** Subprocesses. */
  run?: PermissionGrant;
  /** System information. */
  sys?: PermissionGrant;
  /** Foreign function interface. */
  ffi?: PermissionGrant;
}

/** What a running tool gets besides its arguments. */
export interface ToolContext {
  /**
   * Fires on `client.tool.cancel`, turn cancel, host shutdown, the backend's
   * deadline or the tool's own `timeoutMs`. Pass it to `fetch` and friends and
   * stop promptly: after the host's grace period a tool that is still running
   * is abandoned and the call is answered without it.
   */
  readonly signal: AbortSignal;
  /** The backend's `call_id`. */
  readonly callId: string;
  /** Session the call belongs to. */
  readonly sessionId: string;
  /** Run the call belongs to. */
  readonly runId: string;
  /** When the call is given up, epoch milliseconds (the earlier of deadline and `timeoutMs`). */
  readonly deadline: number;
  /** The host's working directory; tools resolve relative paths against it. */
  readonly cwd: string;
  /**
   * Which attempt of its unit of work this call belongs to: 1, or 2 and more when a `batch`
   * item runs again because an earlier run of it was interrupted mid-item (killed, Ctrl-C,
   * SIGTERM) or `--retry-failed` reran it. Execution is at-least-once: a tool with side effects
   * can use it, with the item's own key, to make a repeat harmless.
   */
  readonly attempt: number;
  /**
   * The call's W3C trace context (`00-<trace id>-<span id>-<flags>`) when telemetry is on
   * (docs/telemetry.md): pass it on (e.g. as a `traceparent` header) so the tool's own work
   * joins the trace. Absent when telemetry is off.
   */
  readonly traceparent?: string;
  /**
   * Report progress: `done` so far, of `total` when known, with a short `message` (at most
   * 256 UTF-8 bytes; longer is cut). It becomes a `tool.progress` record, an MCP
   * `notifications/progress` (when the MCP client asked for progress), the terminal view's
   * status and the inspector's timeline. Call it as often as you like: an unchanged update is
   * dropped and at most 10 pass at once, then 10 a second; the newest waiting update is sent
   * before the result. `done` should increase. Throws a `TypeError` for a `done` or `total`
   * that is not a finite number or a `message` that is not a string.
   */
  progress(done: number, total?: number, message?: string): void;
}

/**
 * MCP tool annotations (hints for clients, never trusted for security). Each one the author
 * leaves out is derived from `effect` (see {@link annotationsOf}).
 */
export interface ToolAnnotations {
  /** The tool does not change anything. Must agree with `effect` (`read` ⇔ true). */
  readOnlyHint?: boolean;
  /** A write may destroy or overwrite data (meaningful when not read-only). */
  destructiveHint?: boolean;
  /** Calling again with the same arguments has no further effect. */
  idempotentHint?: boolean;
  /** The tool reaches an open world (the network, other systems) rather than a closed one. */
  openWorldHint?: boolean;
}

/** Everything a tool module declares. */
export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  /** `^[A-Za-z][A-Za-z0-9_-]{0,63}$`, unique among the host's tools. */
  name: string;
  /** A human-readable name for clients' lists (MCP `title`): 1–128 UTF-8 bytes, one line. */
  title?: string;
  /** What the model reads to decide when and how to call the tool: 1–1024 UTF-8 bytes, no control characters except LF and TAB. */
  description: string;
  /** Arguments schema; its root must be an object. Sent to the backend as JSON Schema (input side). */
  input: I;
  /**
   * Result schema (a zod object schema). The result is validated before it leaves (a mismatch
   * is the error `invalid_output` naming the path, `output.items[2].id: expected string`) and
   * sent as its parsed value; `mcp` lists it as `outputSchema` and answers `structuredContent`.
   */
  output?: O;
  /** `read` or `write` (write tools need approval before each call). */
  effect: ToolEffect;
  /** MCP annotations; each one left out is derived from `effect` ({@link annotationsOf}). */
  annotations?: ToolAnnotations;
  /** The tool's own limit per call, 1,000–600,000 ms; also sent as `timeout_ms`. */
  timeoutMs?: number;
  /** Declared access, enforced for process isolation (see {@link ToolPermissions}). Default: none. */
  permissions?: ToolPermissions;
  /**
   * `"process"` (default): its own warm `deno run` process with exactly the
   * declared permissions, killable. `"inline"`: in the host process, fastest,
   * with the host's permissions, not killable (abandoned after the grace).
   */
  isolation?: "process" | "inline";
  /**
   * Memory cap for the tool's process, MiB, at least {@link MIN_MEMORY_MB}; process
   * isolation only. It caps the V8 heap (`--max-old-space-size`) and, on Linux, everything
   * the process maps after it started (`RLIMIT_DATA` beyond Deno's startup reservation:
   * ArrayBuffers, the runtime's own modules and threads included; docs/tools.md, "Memory
   * and the processes a tool starts").
   */
  memoryMb?: number;
  /**
   * Largest result the model gets from this tool, UTF-8 bytes of its text: an integer from
   * {@link MIN_RESULT_BYTES} to the protocol's `result_bytes` (1,048,576, also the default).
   * What happens to a larger result is {@link ToolSpec.overflow}.
   */
  maxResultBytes?: number;
  /**
   * What a result over {@link ToolSpec.maxResultBytes} becomes: `"error"` (default) the error
   * `result_too_large`; `"truncate"` its head and tail with a marker between them saying how many
   * bytes were cut; `"spill"` the whole text written to `.magi-tools/results/<call>.txt` under
   * the working directory and a text naming the file, its size and its head. A tool with an
   * `output` schema may only use `"error"` (a cut value would not match it).
   */
  overflow?: ResultOverflow;
  /**
   * Do the work. Return a string (sent as-is) or any JSON value (sent as JSON
   * text); throw an `Error` to report a failure (the model sees its message).
   */
  run(args: z.output<I>, ctx: ToolContext): unknown | Promise<unknown>;
}

/**
 * A tool's full MCP annotation set: the author's, and for each one left out the value its
 * `effect` implies: `read` → read-only, not destructive, idempotent; `write` → not read-only,
 * destructive, not idempotent. `openWorldHint` is true for a tool of an external source (MCP
 * server, OpenAPI API) or one granted network access, false otherwise.
 */
export function annotationsOf(
  tool: {
    readonly effect: ToolEffect;
    readonly annotations?: ToolAnnotations | undefined;
    readonly permissions?: ToolPermissions | undefined;
  },
  external = false,
): Required<ToolAnnotations> {
  const read = tool.effect === "read";
  const net = tool.permissions?.net;
  const given = tool.annotations ?? {};
  return {
    readOnlyHint: given.readOnlyHint ?? read,
    destructiveHint: given.destructiveHint ?? !read,
    idempotentHint: given.idempotentHint ?? read,
    openWorldHint: given.openWorldHint ??
      (external || net === true || (Array.isArray(net) && net.length > 0)),
  };
}

/**
 * Least `memoryMb`: a Deno process with the tool runner and zod loaded
 * already holds about 40–60 MiB resident.
 */
export const MIN_MEMORY_MB = 64;

/**
 * What the host knows of a tool without its code: everything but `input`
 * and `run`. A process-isolated tool exists in the host only as this (plus
 * its input JSON Schema); see `sandbox/description.ts`.
 */
export type ToolInfo = Readonly<Omit<ToolSpec<z.ZodObject>, "input" | "output" | "run">>;
