/**
 * The protocol core of `magi-code.local-agent` v1, shared by the client, the host and the
 * reference backend; knows nothing about processes. `limits.ts` (every bound as a named
 * constant), `errors.ts` (error codes, `ProtocolError`), `json.ts` (strict JSON), `utf8.ts`
 * (UTF-8 sizing), `framing.ts` (line frames in both directions), `envelope.ts` (request,
 * response and event frames), `ids.ts` (request ID registry), `canonical.ts` (RFC 8785 JSON and
 * `tool_id`) and `schemas/` (zod schemas and their types for every method and event).
 *
 * @module
 */

export { canonicalJson, toolIdOf } from "./canonical.ts";
export { decodeOutputFrame, decodeRequest, requestFrame } from "./envelope.ts";
export { type ErrorCode, isErrorCode, ProtocolError } from "./errors.ts";
export { encodeFrame, FrameDecoder, type FrameItem, FrameTooLargeError } from "./framing.ts";
export { RequestIdRegistry } from "./ids.ts";
export { type JsonObject, type JsonValue, parseStrictJson } from "./json.ts";
export { LIMITS } from "./limits.ts";
export { utf8ByteLength } from "./utf8.ts";
