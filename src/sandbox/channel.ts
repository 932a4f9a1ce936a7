/**
 * The private channel between the host and a tool process (internal).
 *
 * Host → child: one JSON object per line on the child's stdin. Child → host:
 * one JSON object per line on the child's stdout, each line starting with
 * `\u001e` + a per-process random token + a space. The token is sent as the
 * first stdin line; a stdout line without it is tool output (captured as
 * log), never a message, so nothing the process prints without the token (a
 * program the tool starts, echoed text, the runtime's own messages) can pass
 * for a frame. It is not hidden from the tool module: the module is the
 * runner's `--preload` and runs first, in the same process, so it can learn
 * the token and write frames; the host checks and bounds every frame itself
 * (docs/tools.md, "Logs"), so a forged frame gives nothing a returned value
 * would not. Each frame is written with a leading LF so a tool's unterminated
 * output line cannot glue onto it.
 *
 * @module
 */

/** Separator that starts every child → host frame. */
export const FRAME_MARK = "\u001e";

/** Bytes of per-call tool output kept; the rest is counted and reported truncated. */
export const LOG_BYTES = 65_536;

/** Longest child → host line accepted, bytes (a 1 MiB result escapes to at most ~6 MiB). */
export const MAX_FRAME_CHARS = 8 * 1_048_576;

/** Host → child: start; carries the token and which tool to load. */
export interface InitMessage {
  readonly t: "init";
  readonly token: string;
  readonly name: string;
  readonly url: string;
  /**
   * `sandboxFingerprint()` of the tool as the host described it: the runner
   * refuses to serve a tool whose own differs.
   */
  readonly fingerprint?: string;
}

/** Host → child: run one call. */
export interface CallMessage {
  readonly t: "call";
  readonly id: number;
  /** Arguments as the model produced them; the child parses them with the tool's schema. */
  readonly args: unknown;
  readonly callId: string;
  readonly sessionId: string;
  readonly runId: string;
  readonly deadline: number;
  readonly cwd: string;
  /** `ToolContext.attempt` (default 1). */
  readonly attempt?: number;
  /** `result_bytes`: a longer result text is reported as too large, not sent. */
  readonly resultBytes: number;
  /** The call span's `traceparent` (telemetry on only): the tool's `ctx.traceparent`. */
  readonly traceparent?: string;
}

/** Host → child: abort the call's signal. */
export interface CancelMessage {
  readonly t: "cancel";
  readonly id: number;
}

/** Any host → child message. */
export type HostMessage = InitMessage | CallMessage | CancelMessage;

/** Child → host messages. */
export type ChildMessage =
  | { readonly t: "ready" }
  | { readonly t: "load_error"; readonly message: string; readonly permission?: string }
  | { readonly t: "log"; readonly text: string }
  /** `ctx.progress` of call `id` (already bounded by the child's own limiter; checked again). */
  | {
    readonly t: "progress";
    readonly id: number;
    readonly progress: number;
    readonly total?: number;
    readonly message?: string;
  }
  | {
    readonly t: "result";
    readonly id: number;
    readonly ok: true;
    /** Result text, absent when over `resultBytes`. */
    readonly text?: string;
    /** UTF-8 bytes of the result text when it was too large to send. */
    readonly tooLargeBytes?: number;
    /** A rich result's parts (`content(...)`), instead of `text`; checked by the host. */
    readonly content?: readonly unknown[];
    /** Tool output bytes the child dropped (over {@link LOG_BYTES}). */
    readonly droppedLogBytes: number;
  }
  | {
    readonly t: "result";
    readonly id: number;
    readonly ok: false;
    readonly message: string;
    readonly stack?: string;
    /** Set when the error was a denied permission: `read`, `net`, … */
    readonly permission?: string;
    readonly aborted?: boolean;
    /** The arguments did not match the tool's schema: `message` is the model-facing text. */
    readonly invalid?: true;
    /** The result did not match the tool's `output` schema: `message` is the model-facing text. */
    readonly invalidOutput?: true;
    readonly droppedLogBytes: number;
  }
  | { readonly t: "crash"; readonly message: string; readonly permission?: string };

/** Deno's denial text `Requires read access to "…"`: the permission name, or undefined. */
export function deniedPermission(error: unknown): string | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 4; depth++) {
    if (!(current instanceof Error)) return undefined;
    const named = current.name === "NotCapable" || current.name === "PermissionDenied";
    const match = /Requires (read|write|net|env|run|sys|ffi|import) access/.exec(current.message);
    if (named && match !== null) return match[1];
    if (named) return "unknown";
    current = current.cause;
  }
  return undefined;
}
