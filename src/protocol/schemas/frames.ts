/**
 * Frame envelopes: the request (client → backend) and the two output frame
 * types (backend → client). Params/result/data are checked separately against
 * the registries in `mod.ts`.
 *
 * @module
 */

import { z } from "zod";
import { PROTOCOL, VERSION } from "../limits.ts";
import {
  ErrorObjectSchema,
  JsonObjectSchema,
  LOWER_UUID_PATTERN,
  WIRE_ID_PATTERN,
  WireIdSchema,
} from "./common.ts";
import { EVENT_NAMES } from "./events.ts";

const envelope = {
  protocol: z.literal(PROTOCOL),
  version: z.literal(VERSION),
};

/** A request frame: exactly protocol, version, id, method, params (an object). */
export const RequestFrameSchema = z.strictObject({
  ...envelope,
  id: WireIdSchema,
  method: z.string().regex(WIRE_ID_PATTERN),
  params: JsonObjectSchema,
});
/** A request frame. */
export type RequestFrame = z.infer<typeof RequestFrameSchema>;

const outputEnvelope = {
  ...envelope,
  instance_id: z.string().regex(LOWER_UUID_PATTERN),
  seq: z.int().min(1),
};

/** A success response: `result` (an object), no `error`. */
export const ResultResponseFrameSchema = z.strictObject({
  ...outputEnvelope,
  type: z.literal("response"),
  id: WireIdSchema.nullable(),
  result: JsonObjectSchema,
});
/** A success response frame. */
export type ResultResponseFrame = z.infer<typeof ResultResponseFrameSchema>;

/** An error response: `error` exactly `{ code }`, no `result`. */
export const ErrorResponseFrameSchema = z.strictObject({
  ...outputEnvelope,
  type: z.literal("response"),
  id: WireIdSchema.nullable(),
  error: ErrorObjectSchema,
});
/** An error response frame. */
export type ErrorResponseFrame = z.infer<typeof ErrorResponseFrameSchema>;

/** A response frame: exactly one of `result` / `error`. `id` is null for unusable request identity. */
export const ResponseFrameSchema = z.union([ResultResponseFrameSchema, ErrorResponseFrameSchema]);
/** A response frame. */
export type ResponseFrame = z.infer<typeof ResponseFrameSchema>;

/** An event frame with a known event name and object data. */
export const EventFrameSchema = z.strictObject({
  ...outputEnvelope,
  type: z.literal("event"),
  event: z.enum(EVENT_NAMES),
  data: JsonObjectSchema,
});
/** An event frame. */
export type EventFrame = z.infer<typeof EventFrameSchema>;

/** Any output frame (fail closed on other types). */
export const OutputFrameSchema = z.union([ResponseFrameSchema, EventFrameSchema]);
/** Any output frame. */
export type OutputFrame = z.infer<typeof OutputFrameSchema>;
