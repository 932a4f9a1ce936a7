/**
 * The frame envelope of `magi-code.local-agent` version 1: request decoding
 * (backend side), output frame building, and output frame decoding (client
 * side). See `local-agent-protocol.md` ("Frames, correlation and
 * compatibility") and `wire-contract.md` ("Output frames").
 *
 * @module
 */

import type { ErrorCode } from "./errors.ts";
import { JSON_DEPTH, PROTOCOL, VERSION } from "./limits.ts";
import { duplicateKeyPaths, type JsonObject, type JsonValue, parseStrictJson } from "./json.ts";

/** Request IDs, method and capability names: 1–64 ASCII bytes from `[A-Za-z0-9._-]`. */
export const WIRE_ID_PATTERN: RegExp = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Whether `value` is a string in the ID/method/capability grammar.
 *
 * @example
 * ```ts
 * import { isWireId } from "./envelope.ts";
 * console.assert(isWireId("client.tool.result"));
 * console.assert(!isWireId("r 1"));
 * ```
 */
export function isWireId(value: unknown): value is string {
  // Same rule as WIRE_ID_PATTERN, without the regex engine (it runs twice per request).
  if (typeof value !== "string") return false;
  const length = value.length;
  if (length === 0 || length > 64) return false;
  for (let i = 0; i < length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0x80 || WIRE_ID_CHARS[c] === 0) return false;
  }
  return true;
}

/** 1 for each ASCII code of `[A-Za-z0-9._-]`. */
const WIRE_ID_CHARS: Uint8Array = (() => {
  const table = new Uint8Array(0x80);
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-";
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1;
  return table;
})();

/**
 * A decoded request: its parts, or the error to answer with. `id` is the
 * request ID when it was valid, else null; `close` is true when the
 * connection must close after the answer (`protocol_mismatch`).
 */
export type DecodedRequest =
  | { ok: true; id: string; method: string; params: JsonObject }
  | { ok: false; id: string | null; code: ErrorCode; close: boolean };

/** Number of request envelope fields: `protocol`, `version`, `id`, `method`, `params`. */
const REQUEST_FIELDS = 5;

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function reject(id: string | null, code: ErrorCode, close = false): DecodedRequest {
  return { ok: false, id, code, close };
}

/**
 * Decode one request frame's text. Checks, in this order, the first failure
 * deciding the answer:
 *
 * 1. Strict JSON ({@link parseStrictJson}): too deep → `invalid_frame`;
 *    syntax error → `invalid_request`; `id` null. A duplicate key at the top
 *    level, or inside any member but `params`, → `invalid_request`, `id` null.
 *    Duplicates only inside `params` leave the envelope intact: it is checked
 *    by the steps below, and if it passes the answer is `invalid_params` with
 *    the `id` (params reject duplicate fields).
 * 2. Not an object → `invalid_request`, `id` null.
 * 3. `protocol` or `version` present but not exactly
 *    `"magi-code.local-agent"` / `1` → `protocol_mismatch` with `close: true`
 *    (`id` if it is a valid wire ID, else null).
 * 4. Field set not exactly `protocol`, `version`, `id`, `method`, `params`
 *    (missing or unknown field) → `invalid_request` (`id` if valid, else null).
 * 5. `id` not in the wire-ID grammar → `invalid_request`, `id` null.
 * 6. `method` not in the grammar → `invalid_request` with the `id`.
 * 7. `params` not an object → `invalid_params` with the `id`.
 *
 * Errors carry only a code, never any of the input. Only a frame with a
 * duplicate key pays for the slower locating pass ({@link duplicateKeyPaths}).
 *
 * @example
 * ```ts
 * import { decodeRequest } from "./envelope.ts";
 * const ok = decodeRequest(
 *   '{"protocol":"magi-code.local-agent","version":1,"id":"r1","method":"status","params":{}}',
 * );
 * console.assert(ok.ok && ok.method === "status");
 * const dup = decodeRequest(
 *   '{"protocol":"magi-code.local-agent","version":1,"id":"r2","method":"status",' +
 *     '"params":{"a":1,"a":2}}',
 * );
 * console.assert(!dup.ok && dup.code === "invalid_params" && dup.id === "r2");
 * ```
 */
export function decodeRequest(text: string): DecodedRequest {
  const parsed = parseStrictJson(text, JSON_DEPTH);
  if (parsed.ok) return checkEnvelope(parsed.value);
  if (parsed.reason !== "duplicate_key") return reject(null, parsed.code);
  return decodeWithDuplicates(text);
}

/** Step 1 for a frame whose only JSON fault is a duplicate key (slow path). */
function decodeWithDuplicates(text: string): DecodedRequest {
  const paths = duplicateKeyPaths(text, JSON_DEPTH);
  const inParams = paths.length > 0 && paths.every((p) => p.length > 1 && p[0] === "params");
  if (!inParams) return reject(null, "invalid_request");
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return reject(null, "invalid_request");
  }
  // Top-level keys are unique, so the last-wins parse holds the exact envelope.
  const envelope = checkEnvelope(value);
  return envelope.ok ? reject(envelope.id, "invalid_params") : envelope;
}

/** Steps 2–7 of {@link decodeRequest} on the parsed value. */
function checkEnvelope(value: JsonValue): DecodedRequest {
  if (!isObject(value)) return reject(null, "invalid_request");
  const id = isWireId(value.id) ? value.id : null;
  if (
    (Object.hasOwn(value, "protocol") && value.protocol !== PROTOCOL) ||
    (Object.hasOwn(value, "version") && value.version !== VERSION)
  ) {
    return reject(id, "protocol_mismatch", true);
  }
  // Exactly the five fields: five own keys, each of them one of the five names.
  if (
    Object.keys(value).length !== REQUEST_FIELDS || !Object.hasOwn(value, "protocol") ||
    !Object.hasOwn(value, "version") || !Object.hasOwn(value, "id") ||
    !Object.hasOwn(value, "method") || !Object.hasOwn(value, "params")
  ) return reject(id, "invalid_request");
  if (id === null) return reject(null, "invalid_request");
  const method = value.method;
  if (!isWireId(method)) return reject(id, "invalid_request");
  const params = value.params;
  if (!isObject(params)) return reject(id, "invalid_params");
  return { ok: true, id, method, params };
}

/** Build a request frame (client side). */
export function requestFrame(id: string, method: string, params: JsonObject): JsonObject {
  return { protocol: PROTOCOL, version: VERSION, id, method, params };
}

/** Build a response frame with exactly one of `result` / `error`. */
export function responseFrame(
  instanceId: string,
  seq: number,
  id: string | null,
  body: { result: JsonValue } | { error: { code: ErrorCode } },
): JsonObject {
  const frame: JsonObject = {
    protocol: PROTOCOL,
    version: VERSION,
    type: "response",
    instance_id: instanceId,
    seq,
    id,
  };
  if ("error" in body) frame.error = { code: body.error.code };
  else frame.result = body.result;
  return frame;
}

/** Build an event frame. */
export function eventFrame(
  instanceId: string,
  seq: number,
  event: string,
  data: JsonObject,
): JsonObject {
  return {
    protocol: PROTOCOL,
    version: VERSION,
    type: "event",
    instance_id: instanceId,
    seq,
    event,
    data,
  };
}

/** A decoded output frame (client side), field names in camelCase. */
export type OutputFrame =
  | {
    type: "response";
    instanceId: string;
    seq: number;
    id: string | null;
    result: JsonValue;
    error?: undefined;
  }
  | {
    type: "response";
    instanceId: string;
    seq: number;
    id: string | null;
    error: { code: string };
    result?: undefined;
  }
  | { type: "event"; instanceId: string; seq: number; event: string; data: JsonObject };

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A response whose result is `{"recorded":true,"complete":…}` (what `client.tool.result` answers),
 * written with the members in the order and spacing of {@link responseFrame}: the instance ID,
 * `seq`, the ID and `complete` are captured. Anything else it does not match.
 */
const RECORDED_RESPONSE = new RegExp(
  `^\\{"protocol":"${PROTOCOL.replaceAll(".", "\\.")}","version":${VERSION},"type":"response",` +
    `"instance_id":"(${UUID_PATTERN.source.slice(1, -1)})","seq":([1-9][0-9]{0,15}),` +
    `"id":"([A-Za-z0-9._-]{1,64})","result":\\{"recorded":true,"complete":(true|false)\\}\\}$`,
);

/**
 * The frame of a response to a result part, read with one regular expression; null when `text`
 * is not written as {@link RECORDED_RESPONSE} says (the general decode then reads it). A large
 * result gets one such response per part, 64 a MiB, and the general decode took about eight
 * times longer (bench/notes.md, "The result scan in WebAssembly"). The text matched is strict
 * JSON holding exactly a response's fields, so the frame is the one the general decode gives.
 */
function decodeRecordedResponse(text: string): OutputFrame | null {
  if (text.length > 256) return null;
  const match = RECORDED_RESPONSE.exec(text);
  if (match === null) return null;
  const seq = Number(match[2]);
  if (!Number.isSafeInteger(seq)) return null;
  return {
    type: "response",
    instanceId: match[1]!,
    seq,
    id: match[3]!,
    result: { recorded: true, complete: match[4] === "true" },
  };
}
const RESPONSE_FIELDS = 7;
const EVENT_FIELDS = 7;

function hasOnly(value: JsonObject, allowed: readonly string[]): boolean {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) return false;
  return true;
}

const RESPONSE_ALLOWED = [
  "protocol",
  "version",
  "type",
  "instance_id",
  "seq",
  "id",
  "result",
  "error",
];
const EVENT_ALLOWED = ["protocol", "version", "type", "instance_id", "seq", "event", "data"];

/**
 * Decode one output frame (client side) and check its envelope exactly:
 * protocol and version, `type` `response` or `event`, lowercase UUID
 * `instance_id`, integer `seq >= 1`, exact field sets, a response with
 * exactly one of `result` / `error` where `error` is exactly
 * `{ code: string }`, an event with a wire-ID `event` and an object `data`.
 * Whether the error code, event name and `seq` order are acceptable is the
 * caller's check. `reason` is a fixed phrase, never input.
 *
 * @example
 * ```ts
 * import { decodeOutputFrame } from "./envelope.ts";
 * const decoded = decodeOutputFrame(
 *   '{"protocol":"magi-code.local-agent","version":1,"type":"response",' +
 *     '"instance_id":"0f8fad5b-d9cb-469f-a165-70867728950e","seq":1,"id":"r1","result":{}}',
 * );
 * console.assert(decoded.ok && decoded.frame.type === "response");
 * ```
 */
export function decodeOutputFrame(
  text: string,
): { ok: true; frame: OutputFrame } | { ok: false; reason: string } {
  const recorded = decodeRecordedResponse(text);
  if (recorded !== null) return { ok: true, frame: recorded };
  const parsed = parseStrictJson(text, JSON_DEPTH);
  if (!parsed.ok) return { ok: false, reason: "Frame is not strict JSON" };
  const value = parsed.value;
  if (!isObject(value)) return { ok: false, reason: "Frame is not an object" };
  if (value.protocol !== PROTOCOL || value.version !== VERSION) {
    return { ok: false, reason: "Unknown protocol or version" };
  }
  const instanceId = value.instance_id;
  if (typeof instanceId !== "string" || !UUID_PATTERN.test(instanceId)) {
    return { ok: false, reason: "Invalid instance_id" };
  }
  const seq = value.seq;
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) {
    return { ok: false, reason: "Invalid seq" };
  }
  if (value.type === "response") {
    if (!hasOnly(value, RESPONSE_ALLOWED) || Object.keys(value).length !== RESPONSE_FIELDS) {
      return { ok: false, reason: "Response fields are not exact" };
    }
    const id = value.id;
    if (id !== null && !isWireId(id)) return { ok: false, reason: "Invalid response id" };
    if (Object.hasOwn(value, "error")) {
      const error = value.error;
      if (
        !isObject(error) || typeof error.code !== "string" || Object.keys(error).length !== 1
      ) {
        return { ok: false, reason: "Invalid error object" };
      }
      return {
        ok: true,
        frame: { type: "response", instanceId, seq, id, error: { code: error.code } },
      };
    }
    return {
      ok: true,
      frame: { type: "response", instanceId, seq, id, result: value.result as JsonValue },
    };
  }
  if (value.type === "event") {
    if (!hasOnly(value, EVENT_ALLOWED) || Object.keys(value).length !== EVENT_FIELDS) {
      return { ok: false, reason: "Event fields are not exact" };
    }
    const event = value.event;
    if (!isWireId(event)) return { ok: false, reason: "Invalid event name" };
    const data = value.data;
    if (!isObject(data)) return { ok: false, reason: "Event data is not an object" };
    return { ok: true, frame: { type: "event", instanceId, seq, event, data } };
  }
  return { ok: false, reason: "Unknown frame type" };
}
