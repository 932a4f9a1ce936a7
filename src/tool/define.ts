/**
 * `defineTool`: the one way to declare a client tool.
 *
 * A tool module's default export is the result of {@link defineTool}. The
 * spec is validated eagerly, so a bad name, description, effect or timeout
 * fails when the module loads, with a `TypeError` naming the field, not when
 * the model first calls the tool.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { defineTool } from "./define.ts";
 *
 * export default defineTool({
 *   name: "echo",
 *   description: "Return the given text unchanged.",
 *   input: z.object({ text: z.string() }),
 *   effect: "read",
 *   run: ({ text }) => text,
 * });
 * ```
 *
 * @module
 */

import { z } from "zod";
import {
  CLIENT_TOOL_MIN_TIMEOUT_MS,
  CLIENT_TOOLS_LIMITS,
  MIN_RESULT_BYTES,
} from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { TOOL_NAME_PATTERN } from "../protocol/schemas/client_tools.ts";
import { hasControlExceptTabLf } from "../text/control.ts";

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
 * Brand carried by every {@link defineTool} result.
 *
 * @internal
 */
export const TOOL_MARK: unique symbol = Symbol.for("magi-tools.tool") as never;

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

/** A validated, frozen tool definition. */
export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject>
  extends Readonly<ToolSpec<I, O>> {
  /** Brand: this object came from {@link defineTool}. */
  readonly [TOOL_MARK]: true;
}

const SPEC_KEYS = new Set([
  "name",
  "title",
  "description",
  "input",
  "output",
  "effect",
  "annotations",
  "timeoutMs",
  "permissions",
  "isolation",
  "memoryMb",
  "maxResultBytes",
  "overflow",
  "run",
]);
const PERMISSION_KEYS = new Set(["read", "write", "net", "env", "run", "sys", "ffi"]);
const ANNOTATION_KEYS = new Set([
  "readOnlyHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
]);
/** Bound on a tool's `title`, UTF-8 bytes. */
export const TITLE_BYTES = 128;
/**
 * Kinds a process-isolated tool may grant wholesale with `true`. Every other
 * kind needs a list: `read: true` would expose every secret on disk,
 * `run: true` any program (which runs unsandboxed), `env: true` every secret
 * in the environment, `ffi: true` native code. `net: true` serves tools that
 * fetch model-given URLs; `sys: true` exposes only system information.
 */
export const UNRESTRICTED_ALLOWED: ReadonlySet<string> = new Set(["net", "sys"]);
/** The shortest prefix before `*` a process-isolated tool's `env` entry may have. */
export const MIN_ENV_PREFIX = 3;

/**
 * Validate a tool spec and return it frozen and branded.
 *
 * @throws {TypeError} naming the offending field, e.g.
 * `Tool name must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$: 9bad`.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { defineTool, isTool } from "./define.ts";
 *
 * const tool = defineTool({
 *   name: "add",
 *   description: "Add two numbers.",
 *   input: z.object({ a: z.number(), b: z.number() }),
 *   effect: "read",
 *   run: ({ a, b }) => ({ sum: a + b }),
 * });
 * console.assert(isTool(tool));
 * ```
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject = z.ZodObject>(
  spec: ToolSpec<I, O>,
): Tool<I, O> {
  if (typeof spec !== "object" || spec === null) {
    throw new TypeError("Tool spec must be an object");
  }
  const name: unknown = spec.name;
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    throw new TypeError(`Tool name must match ${TOOL_NAME_PATTERN.source}: ${show(name)}`);
  }
  for (const key of Object.keys(spec)) {
    if (!SPEC_KEYS.has(key)) throw new TypeError(`Tool spec has an unknown field: ${name}: ${key}`);
  }
  checkDescription(name, spec.description);
  if (!isZodObject(spec.input)) {
    throw new TypeError(`Tool input must be a zod object schema (z.object): ${name}`);
  }
  if (spec.effect !== "read" && spec.effect !== "write") {
    throw new TypeError(`Tool effect must be "read" or "write": ${name}: ${show(spec.effect)}`);
  }
  if (spec.output !== undefined && !isZodObject(spec.output)) {
    throw new TypeError(`Tool output must be a zod object schema (z.object): ${name}`);
  }
  checkTitle(name, spec.title);
  checkAnnotations(name, spec.annotations, spec.effect);
  const max = CLIENT_TOOLS_LIMITS.max_timeout_ms;
  const timeoutMs: unknown = spec.timeoutMs;
  if (
    timeoutMs !== undefined &&
    (!Number.isInteger(timeoutMs) || (timeoutMs as number) < CLIENT_TOOL_MIN_TIMEOUT_MS ||
      (timeoutMs as number) > max)
  ) {
    throw new TypeError(
      `Tool timeoutMs must be an integer from ${CLIENT_TOOL_MIN_TIMEOUT_MS} to ${max}: ${name}: ${
        show(timeoutMs)
      }`,
    );
  }
  const isolation: unknown = spec.isolation;
  if (isolation !== undefined && isolation !== "process" && isolation !== "inline") {
    throw new TypeError(
      `Tool isolation must be "process" or "inline": ${name}: ${show(isolation)}`,
    );
  }
  if (spec.permissions !== undefined) {
    checkPermissions(name, spec.permissions, isolation === "inline");
  }
  const memoryMb: unknown = spec.memoryMb;
  if (memoryMb !== undefined && (!Number.isInteger(memoryMb) || (memoryMb as number) < 1)) {
    throw new TypeError(`Tool memoryMb must be a positive integer: ${name}: ${show(memoryMb)}`);
  }
  if (memoryMb !== undefined && (memoryMb as number) < MIN_MEMORY_MB) {
    throw new TypeError(
      `Tool memoryMb must be at least ${MIN_MEMORY_MB} (a Deno process alone holds about 40–60 MiB): ${name}: ${memoryMb}`,
    );
  }
  if (memoryMb !== undefined && isolation === "inline") {
    throw new TypeError(`Tool memoryMb needs process isolation, not inline: ${name}`);
  }
  checkResultBounds(name, spec);
  if (typeof spec.run !== "function") throw new TypeError(`Tool run must be a function: ${name}`);

  const tool = { ...spec, [TOOL_MARK]: true as const };
  if (spec.permissions !== undefined) tool.permissions = freezePermissions(spec.permissions);
  if (spec.annotations !== undefined) tool.annotations = Object.freeze({ ...spec.annotations });
  return Object.freeze(tool);
}

/** Whether `value` is a {@link defineTool} result. */
export function isTool(value: unknown): value is Tool {
  return typeof value === "object" && value !== null &&
    (value as Record<PropertyKey, unknown>)[TOOL_MARK] === true;
}

function checkDescription(name: string, description: unknown): void {
  const limit = CLIENT_TOOLS_LIMITS.description_bytes;
  if (typeof description !== "string") {
    throw new TypeError(`Tool description must be a string: ${name}`);
  }
  const bytes = utf8ByteLength(description);
  if (bytes < 1 || bytes > limit) {
    throw new TypeError(`Tool description must be 1 to ${limit} UTF-8 bytes: ${name}: ${bytes}`);
  }
  if (!description.isWellFormed()) {
    throw new TypeError(`Tool description must be well-formed Unicode: ${name}`);
  }
  if (hasControlExceptTabLf(description)) {
    throw new TypeError(
      `Tool description must not contain control characters other than LF and TAB: ${name}`,
    );
  }
}

/** Check `maxResultBytes` and `overflow` (shared with the config's API and server entries). */
export function checkResultBounds(
  name: string,
  spec: {
    readonly maxResultBytes?: unknown;
    readonly overflow?: unknown;
    readonly output?: unknown;
  },
): void {
  const max = CLIENT_TOOLS_LIMITS.result_bytes;
  const bytes = spec.maxResultBytes;
  if (
    bytes !== undefined &&
    (!Number.isInteger(bytes) || (bytes as number) < MIN_RESULT_BYTES || (bytes as number) > max)
  ) {
    throw new TypeError(
      `Tool maxResultBytes must be an integer from ${MIN_RESULT_BYTES} to ${max}: ${name}: ${
        show(bytes)
      }`,
    );
  }
  const overflow = spec.overflow;
  if (
    overflow !== undefined && overflow !== "error" && overflow !== "truncate" &&
    overflow !== "spill"
  ) {
    throw new TypeError(
      `Tool overflow must be "error", "truncate" or "spill": ${name}: ${show(overflow)}`,
    );
  }
  if (spec.output !== undefined && overflow !== undefined && overflow !== "error") {
    throw new TypeError(
      `Tool overflow must be "error" for a tool with an output schema (a cut result would not match it): ${name}`,
    );
  }
}

function checkTitle(name: string, title: unknown): void {
  if (title === undefined) return;
  if (typeof title !== "string") throw new TypeError(`Tool title must be a string: ${name}`);
  const bytes = utf8ByteLength(title);
  const control = hasControlExceptTabLf(title) || title.includes("\n") || title.includes("\t");
  if (bytes < 1 || bytes > TITLE_BYTES || !title.isWellFormed() || control) {
    throw new TypeError(
      `Tool title must be 1 to ${TITLE_BYTES} UTF-8 bytes of one line, no control characters: ${name}`,
    );
  }
}

function checkAnnotations(name: string, annotations: unknown, effect: ToolEffect): void {
  if (annotations === undefined) return;
  if (typeof annotations !== "object" || annotations === null || Array.isArray(annotations)) {
    throw new TypeError(`Tool annotations must be an object: ${name}`);
  }
  for (const [key, value] of Object.entries(annotations)) {
    if (!ANNOTATION_KEYS.has(key)) {
      throw new TypeError(`Tool annotations has an unknown field: ${name}: ${key}`);
    }
    if (typeof value !== "boolean") {
      throw new TypeError(`Tool annotations.${key} must be a boolean: ${name}: ${show(value)}`);
    }
  }
  const readOnly = (annotations as ToolAnnotations).readOnlyHint;
  if (readOnly !== undefined && readOnly !== (effect === "read")) {
    throw new TypeError(
      `Tool annotations.readOnlyHint must agree with effect (${effect}): ${name}: ${readOnly}`,
    );
  }
}

function checkPermissions(name: string, permissions: unknown, inline: boolean): void {
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
    throw new TypeError(`Tool permissions must be an object: ${name}`);
  }
  for (const [key, grant] of Object.entries(permissions)) {
    if (!PERMISSION_KEYS.has(key)) {
      throw new TypeError(`Tool permissions has an unknown field: ${name}: ${key}`);
    }
    const ok = typeof grant === "boolean" ||
      (Array.isArray(grant) && grant.every((entry) => typeof entry === "string" && entry !== ""));
    if (!ok) {
      throw new TypeError(
        `Tool permissions.${key} must be a boolean or a list of non-empty strings: ${name}`,
      );
    }
    if (Array.isArray(grant) && grant.some((entry: string) => entry.includes(","))) {
      throw new TypeError(
        `Tool permissions.${key} entries must not contain a comma: ${name}`,
      );
    }
    if (key === "env" && Array.isArray(grant) && !inline) {
      // A prefix (`NAME_*`) too short is `env: true` by another name: every secret.
      const wide = grant.find((entry: string) => {
        const star = entry.indexOf("*");
        return star !== -1 && (star !== entry.length - 1 || star < MIN_ENV_PREFIX);
      });
      if (wide !== undefined) {
        throw new TypeError(
          `Tool permissions.env entry ${
            JSON.stringify(wide)
          } of a process-isolated tool is too wide (it would match every secret in the environment): name the variables, or a prefix of at least ${MIN_ENV_PREFIX} characters ending in * (e.g. "MYAPP_*"): ${name}`,
        );
      }
    }
    if (grant === true && !inline && !UNRESTRICTED_ALLOWED.has(key)) {
      throw new TypeError(
        `Tool permissions.${key} must list what it allows; true is accepted only for net and sys of a process-isolated tool: ${name}`,
      );
    }
  }
}

function freezePermissions(permissions: ToolPermissions): ToolPermissions {
  const copy: Record<string, PermissionGrant> = {};
  for (const [key, grant] of Object.entries(permissions)) {
    if (grant !== undefined) copy[key] = Array.isArray(grant) ? Object.freeze([...grant]) : grant;
  }
  return Object.freeze(copy);
}

function isZodObject(value: unknown): value is z.ZodObject {
  if (value instanceof z.ZodObject) return true;
  // A tool module may import its own copy of zod 4: accept any zod 4 object schema.
  const internals = (value as { _zod?: { def?: { type?: unknown } } } | null)?._zod;
  return typeof value === "object" && value !== null && internals?.def?.type === "object";
}

function show(value: unknown): string {
  if (value === "") return '""';
  if (typeof value === "string") return value.length > 80 ? `${value.slice(0, 80)}…` : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  return typeof value;
}
