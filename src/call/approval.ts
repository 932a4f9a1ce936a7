/**
 * Approval at call time: what a person is shown before a write tool runs, and the contract
 * between the executor and whoever asks the person (`ExecutorOptions.approveCall`).
 *
 * The view shows every argument: one line per field, the path of every object key in sorted
 * order (UTF-16 code units, the same order whatever order the model wrote them in), each value as
 * JSON (so a newline in a value cannot fake another line), cut per value at
 * {@link APPROVAL_VALUE_BYTES} with a marker saying how many bytes were cut. A long value can
 * therefore never push another key out of view; only past {@link APPROVAL_MAX_LINES} lines does
 * the view end, with a line saying how many fields are not shown. Arrays of plain values are one
 * value; arrays holding objects or arrays are opened by index.
 *
 * The arguments are validated against the tool's schema before anyone is asked: an invalid call
 * is answered `invalid_arguments` and never put to a person.
 *
 * @module
 */

import { z } from "zod";
import type { WriteNotRun } from "../tool/answers.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { cutUtf8 } from "../text/utf8.ts";

/** A value longer than this (UTF-8 bytes of its JSON) is cut in the view. */
export const APPROVAL_VALUE_BYTES = 240;
/** Nesting levels the view opens into separate fields; deeper values are shown whole. */
export const APPROVAL_MAX_DEPTH = 16;

/** JSON of `value`, or a note when it cannot be written (nested past the engine's stack). */
function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return "(nested too deeply to show: do not approve what you cannot see)";
  }
}

/** The view shows at most this many fields; a last line counts the rest. */
export const APPROVAL_MAX_LINES = 200;

/** One write tool call put to a person. */
export interface CallApproval {
  /** The call's ID. */
  readonly callId: string;
  /** The run it belongs to (`mcp`, `direct` outside a backend's run). */
  readonly runId: string;
  /** The tool. */
  readonly name: string;
  /** The validated arguments. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** What the person is shown: {@link argumentView} of the arguments. */
  readonly view: ArgumentView;
  /** The tool's source as approval rules name it: `module`, `mcp:<server>`, `openapi:<api>`. */
  readonly source?: string;
  /**
   * The most the person has to answer, ms: the executor gives the time left to the call's
   * deadline; a `run` takes the backend's `approval_expiry_ms` when that is shorter.
   */
  readonly expiresInMs?: number;
}

/** A person's (or a policy's) verdict on a {@link CallApproval}. */
export type CallVerdict =
  | { readonly allow: true }
  | { readonly allow: false; readonly why: WriteNotRun };

/** Who decides write tool calls before they run (`ExecutorOptions.approveCall`). */
export interface CallApprover {
  /** Whether write tool calls are put to a person now (false: they run without asking). */
  asks(): boolean;
  /** Decide one call; `signal` fires when the call is cancelled or its deadline passes. */
  decide(request: CallApproval, signal: AbortSignal): Promise<CallVerdict>;
}

/** One field of the view. */
export interface ArgumentLine {
  /** Where the value is: `path`, `options.mode`, `items[2].name`, `["odd key"]`. */
  readonly path: string;
  /** The value as JSON, cut to at most {@link APPROVAL_VALUE_BYTES} bytes. */
  readonly value: string;
  /** How many bytes of the JSON were cut (0: shown whole). */
  readonly cutBytes: number;
}

/** The fields of a call's arguments as a person sees them. */
export interface ArgumentView {
  /** The fields, in sorted key order. */
  readonly lines: readonly ArgumentLine[];
  /** Fields past {@link APPROVAL_MAX_LINES} (not shown). */
  readonly hidden: number;
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

function keyPath(parent: string, key: string): string {
  if (PLAIN_KEY.test(key)) return parent === "" ? key : `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/**
 * The view of `args`: every field, sorted, each value cut on its own.
 *
 * @example
 * ```ts
 * import { argumentView } from "./approval.ts";
 * const view = argumentView({ z: 1, a: "x".repeat(1000), m: { b: true } });
 * console.assert(view.lines.map((l) => l.path).join(",") === "a,m.b,z");
 * console.assert(view.lines[0]!.cutBytes > 0 && view.lines[2]!.value === "1");
 * ```
 */
export function argumentView(args: Readonly<Record<string, unknown>>): ArgumentView {
  const lines: ArgumentLine[] = [];
  let hidden = 0;
  const add = (path: string, value: unknown) => {
    if (lines.length >= APPROVAL_MAX_LINES) return void hidden++;
    const json = jsonOf(value);
    const shown = cutUtf8(json, APPROVAL_VALUE_BYTES);
    lines.push({ path, value: shown, cutBytes: utf8ByteLength(json) - utf8ByteLength(shown) });
  };
  // Past APPROVAL_MAX_DEPTH levels a value is shown whole (as JSON, cut like any other).
  const walk = (path: string, value: unknown, depth: number): void => {
    if (depth >= APPROVAL_MAX_DEPTH) return add(path, value);
    if (Array.isArray(value)) {
      if (value.length === 0 || !value.some(isContainer)) return add(path, value);
      value.forEach((item, index) => walk(`${path}[${index}]`, item, depth + 1));
      return;
    }
    if (!isContainer(value)) return add(path, value);
    const keys = Object.keys(value).sort();
    if (keys.length === 0) return add(path, value);
    for (const key of keys) {
      walk(keyPath(path, key), (value as Record<string, unknown>)[key], depth + 1);
    }
  };
  const keys = Object.keys(args).sort();
  if (keys.length === 0) add("(no arguments)", {});
  for (const key of keys) walk(keyPath("", key), args[key], 1);
  return { lines, hidden };
}

/**
 * The view as text lines (`path: value`, a cut value followed by `… (N more bytes not shown)`),
 * for a terminal (through `terminalText`) or an MCP elicitation message.
 *
 * @example
 * ```ts
 * import { argumentView, argumentViewText } from "./approval.ts";
 * const [line] = argumentViewText(argumentView({ text: "x".repeat(300) }));
 * console.assert(line!.startsWith('text: "xxx') && line!.endsWith("… (62 more bytes not shown)"));
 * ```
 */
export function argumentViewText(view: ArgumentView): string[] {
  const lines = view.lines.map((line) =>
    `${line.path}: ${line.value}${
      line.cutBytes > 0 ? `… (${line.cutBytes} more bytes not shown)` : ""
    }`
  );
  if (view.hidden > 0) {
    lines.push(`… ${view.hidden} more field(s) not shown: do not approve what you cannot see`);
  }
  return lines;
}

const compiled = new WeakMap<object, z.ZodType | null>();

/**
 * The issues of `args` against the JSON Schema `schema` (a tool's `input_schema`, for a tool
 * whose zod schema lives in its own process), or null when they are valid or the schema cannot
 * be turned into a check (the tool's process still validates before it runs).
 */
export function schemaIssues(
  schema: Readonly<Record<string, unknown>>,
  args: unknown,
): z.core.$ZodIssue[] | null {
  let check = compiled.get(schema);
  if (check === undefined) {
    try {
      check = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
      check = null;
    }
    compiled.set(schema, check);
  }
  if (check === null) return null;
  const parsed = check.safeParse(args);
  return parsed.success ? null : parsed.error.issues;
}
