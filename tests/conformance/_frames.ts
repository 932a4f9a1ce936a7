/**
 * Validation of every backend output frame against the wire contract.
 *
 * The checker is stateful per child: it fixes the `instance_id`, expects `seq` to increase by
 * exactly one from 1, and tracks runs so no event of a run follows its `run.finished`.
 *
 * @module
 */

import { ERROR_CODES } from "../../src/protocol/errors.ts";
import { parseStrictJson } from "../../src/protocol/json.ts";
import {
  EVENT_CHUNK_BYTES,
  OUTPUT_FRAME_BYTES,
  PROTOCOL,
  VERSION,
} from "../../src/protocol/limits.ts";

/** A parsed response frame. */
export interface ResponseFrame {
  readonly type: "response";
  readonly seq: number;
  readonly instance_id: string;
  readonly id: string | null;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: string };
  /** Position in the child's output (0-based). */
  readonly index: number;
}

/** A parsed event frame. */
export interface EventFrame {
  readonly type: "event";
  readonly seq: number;
  readonly instance_id: string;
  readonly event: string;
  readonly data: Record<string, unknown>;
  readonly index: number;
}

/** Any output frame. */
export type OutputFrame = ResponseFrame | EventFrame;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const WIRE_ID = /^[A-Za-z0-9._-]{1,64}$/;
const ERRORS = new Set<string>(ERROR_CODES);

/** Exact data fields of each event, beyond `session_id` and `run_id`. */
export const EVENT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  "input.persisted": ["message_id", "durable", "revision"],
  "message.delta": ["message_id", "part", "text"],
  "message.reconcile": ["message_id", "part", "text", "last_part", "partial"],
  "activity": ["activity_id", "kind", "state", "name", "summary"],
  "approval.requested": ["approval_id", "summary", "expires_in_ms"],
  "diagnostic": ["code", "summary"],
  "run.finished": ["outcome", "persistence", "revision", "error_code"],
  "client.tool.call": ["call_id", "name", "tool_id", "arguments", "deadline_ms"],
  "client.tool.cancel": ["call_id", "reason"],
  "tool.card": ["card_id", "activity_id", "title", "state", "fields"],
};

const ENUMS: Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>> = {
  "activity": {
    kind: ["tool", "subagent", "compaction"],
    state: ["started", "completed", "failed"],
  },
  "run.finished": {
    outcome: ["completed", "cancelled", "failed"],
    persistence: ["durable", "degraded", "not_started"],
  },
  "client.tool.cancel": { reason: ["run_cancelled", "deadline", "shutdown", "run_failed"] },
  "input.persisted": { durable: [true] },
  "tool.card": { state: ["started", "completed", "failed"] },
};

const utf8 = new TextEncoder();

/** UTF-8 byte length of a string. */
export function byteLength(text: string): number {
  return utf8.encode(text).length;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameKeys(obj: Record<string, unknown>, keys: readonly string[]): boolean {
  const have = Object.keys(obj).sort();
  const want = [...keys].sort();
  return have.length === want.length && have.every((k, i) => k === want[i]);
}

/** Checks each output frame of one child; collects violations instead of throwing. */
export class FrameChecker {
  /** Every rule broken so far, in order, with the frame's seq position. */
  readonly violations: string[] = [];
  #instance: string | undefined;
  #seq = 0;
  #index = 0;
  #finished = new Set<string>();
  #decoder = new TextDecoder("utf-8", { fatal: true });
  #toolsNegotiated = false;
  #cardsNegotiated = false;

  /** Tell the checker that `client.tools` was negotiated (its events become legal). */
  allowClientTools(): void {
    this.#toolsNegotiated = true;
  }

  /** Tell the checker that `tool.cards` was negotiated (`tool.card` becomes legal). */
  allowToolCards(): void {
    this.#cardsNegotiated = true;
  }

  /** Check one frame given its bytes without the LF; returns it parsed, or undefined. */
  check(line: Uint8Array): OutputFrame | undefined {
    const where = `output frame #${this.#index + 1}`;
    if (line.length + 1 > OUTPUT_FRAME_BYTES) {
      this.violations.push(`${where} is ${line.length + 1} bytes including LF`);
    }
    let text: string;
    try {
      text = this.#decoder.decode(line);
    } catch {
      this.violations.push(`${where} is not valid UTF-8`);
      return undefined;
    }
    // Generous depth: only syntax and duplicate keys are judged here.
    const parsed = parseStrictJson(text, 256);
    if (!parsed.ok) {
      this.violations.push(`${where} is not strict JSON (${parsed.code}): ${text.slice(0, 200)}`);
      return undefined;
    }
    const value: unknown = parsed.value;
    if (!isObject(value)) {
      this.violations.push(`${where} is not a JSON object`);
      return undefined;
    }
    const problems = this.#envelope(value);
    for (const p of problems) this.violations.push(`${where}: ${p}: ${text.slice(0, 300)}`);
    const frame = { ...value, index: this.#index++ } as unknown as OutputFrame;
    return frame;
  }

  #envelope(v: Record<string, unknown>): string[] {
    const out: string[] = [];
    if (v.protocol !== PROTOCOL) out.push("wrong protocol");
    if (v.version !== VERSION) out.push("wrong version");
    if (typeof v.instance_id !== "string" || !UUID.test(v.instance_id)) {
      out.push("instance_id is not a lowercase UUID");
    } else if (this.#instance === undefined) {
      this.#instance = v.instance_id;
    } else if (this.#instance !== v.instance_id) out.push("instance_id changed within the child");
    if (v.seq !== this.#seq + 1) out.push(`seq ${String(v.seq)} does not follow ${this.#seq}`);
    if (typeof v.seq === "number") this.#seq = v.seq;
    if (v.type === "response") out.push(...this.#response(v));
    else if (v.type === "event") out.push(...this.#event(v));
    else out.push(`unknown frame type ${String(v.type)}`);
    return out;
  }

  #response(v: Record<string, unknown>): string[] {
    const out: string[] = [];
    const base = ["protocol", "version", "type", "instance_id", "seq", "id"];
    const hasResult = "result" in v;
    const hasError = "error" in v;
    if (hasResult === hasError) out.push("response needs exactly one of result/error");
    if (!sameKeys(v, [...base, hasResult ? "result" : "error"])) {
      out.push(`response fields are ${Object.keys(v).join(",")}`);
    }
    if (v.id !== null && (typeof v.id !== "string" || !WIRE_ID.test(v.id))) out.push("bad id");
    if (hasResult && !isObject(v.result)) out.push("result is not an object");
    if (hasError) {
      const e = v.error;
      if (!isObject(e) || !sameKeys(e, ["code"])) out.push("error is not exactly {code}");
      else if (typeof e.code !== "string" || !ERRORS.has(e.code)) {
        out.push(`unknown error code ${String(e.code)}`);
      }
    }
    return out;
  }

  #event(v: Record<string, unknown>): string[] {
    const out: string[] = [];
    if (!sameKeys(v, ["protocol", "version", "type", "instance_id", "seq", "event", "data"])) {
      out.push(`event fields are ${Object.keys(v).join(",")}`);
    }
    const name = String(v.event);
    const fields = EVENT_FIELDS[name];
    if (fields === undefined) return [...out, `unknown event ${name}`];
    if (name.startsWith("client.tool.") && !this.#toolsNegotiated) {
      out.push(`${name} without client.tools negotiation`);
    }
    if (name === "tool.card" && !this.#cardsNegotiated) {
      out.push("tool.card without tool.cards negotiation");
    }
    const data = v.data;
    if (!isObject(data)) return [...out, "data is not an object"];
    if (!sameKeys(data, ["session_id", "run_id", ...fields])) {
      out.push(`${name} data fields are ${Object.keys(data).join(",")}`);
    }
    if (typeof data.session_id !== "string" || typeof data.run_id !== "string") {
      out.push("session_id/run_id are not strings");
    }
    for (const [field, allowed] of Object.entries(ENUMS[name] ?? {})) {
      if (!allowed.includes(data[field])) out.push(`${name}.${field} = ${String(data[field])}`);
    }
    const run = `${String(data.session_id)}/${String(data.run_id)}`;
    if (this.#finished.has(run)) out.push(`${name} after run.finished of ${run}`);
    if (name === "run.finished") this.#finished.add(run);
    if (name === "message.delta" || name === "message.reconcile") {
      if (typeof data.text !== "string") out.push(`${name}.text is not a string`);
      else if (byteLength(data.text) > EVENT_CHUNK_BYTES) {
        out.push(`${name} chunk of ${byteLength(data.text)} bytes`);
      }
      if (!Number.isInteger(data.part) || (data.part as number) < 0) out.push("bad part");
    }
    for (const key of ["summary"]) {
      if (key in data && (typeof data[key] !== "string" || byteLength(data[key]) > 1024)) {
        out.push(`${name}.${key} is not a string of at most 1024 bytes`);
      }
    }
    return out;
  }
}
