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
  type ErrorObject,
  ErrorObjectSchema,
  JsonObjectSchema,
  LOWER_UUID_PATTERN,
  WIRE_ID_PATTERN,
  WireIdSchema,
} from "./common.ts";
import { EVENT_NAMES, type EventName } from "./events.ts";

/** A request frame: exactly protocol, version, id, method, params (an object). */
export type RequestFrame = {
  protocol: typeof PROTOCOL;
  version: typeof VERSION;
  id: string;
  method: string;
  params: Record<string, unknown>;
};

/** A success response: `result` (an object), no `error`. */
export type ResultResponseFrame = {
  protocol: typeof PROTOCOL;
  version: typeof VERSION;
  /** The backend process's instance, a lowercase UUID. */
  instance_id: string;
  /** The frame's sequence number, from 1. */
  seq: number;
  type: "response";
  id: string | null;
  result: Record<string, unknown>;
};

/** An error response: `error` exactly `{ code }`, no `result`. */
export type ErrorResponseFrame = {
  protocol: typeof PROTOCOL;
  version: typeof VERSION;
  /** The backend process's instance, a lowercase UUID. */
  instance_id: string;
  /** The frame's sequence number, from 1. */
  seq: number;
  type: "response";
  id: string | null;
  error: ErrorObject;
};

/** A response frame: exactly one of `result` / `error`. `id` is null for unusable request identity. */
export type ResponseFrame = ResultResponseFrame | ErrorResponseFrame;

/** An event frame with a known event name and object data. */
export type EventFrame = {
  protocol: typeof PROTOCOL;
  version: typeof VERSION;
  /** The backend process's instance, a lowercase UUID. */
  instance_id: string;
  /** The frame's sequence number, from 1. */
  seq: number;
  type: "event";
  event: EventName;
  data: Record<string, unknown>;
};

/** Any output frame (fail closed on other types). */
export type OutputFrame = ResponseFrame | EventFrame;

function build() {
  const envelope = { protocol: z.literal(PROTOCOL), version: z.literal(VERSION) };
  const outputEnvelope = {
    ...envelope,
    instance_id: z.string().regex(LOWER_UUID_PATTERN),
    seq: z.int().min(1),
  };
  const ResultResponseFrameSchema = z.strictObject({
    ...outputEnvelope,
    type: z.literal("response"),
    id: WireIdSchema.nullable(),
    result: JsonObjectSchema,
  });
  const ErrorResponseFrameSchema = z.strictObject({
    ...outputEnvelope,
    type: z.literal("response"),
    id: WireIdSchema.nullable(),
    error: ErrorObjectSchema,
  });
  const ResponseFrameSchema = z.union([ResultResponseFrameSchema, ErrorResponseFrameSchema]);
  const EventFrameSchema = z.strictObject({
    ...outputEnvelope,
    type: z.literal("event"),
    event: z.enum(EVENT_NAMES),
    data: JsonObjectSchema,
  });
  return {
    RequestFrameSchema: z.strictObject({
      ...envelope,
      id: WireIdSchema,
      method: z.string().regex(WIRE_ID_PATTERN),
      params: JsonObjectSchema,
    }),
    ResultResponseFrameSchema,
    ErrorResponseFrameSchema,
    ResponseFrameSchema,
    EventFrameSchema,
    OutputFrameSchema: z.union([ResponseFrameSchema, EventFrameSchema]),
  };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type FrameSchemas = ReturnType<typeof build>;
const built: FrameSchemas = build();

/** A request frame. */
export const RequestFrameSchema: z.ZodType<RequestFrame> = built.RequestFrameSchema;
/** A success response frame. */
export const ResultResponseFrameSchema: z.ZodType<ResultResponseFrame> =
  built.ResultResponseFrameSchema;
/** An error response frame. */
export const ErrorResponseFrameSchema: z.ZodType<ErrorResponseFrame> =
  built.ErrorResponseFrameSchema;
/** A response frame. */
export const ResponseFrameSchema: z.ZodType<ResponseFrame> = built.ResponseFrameSchema;
/** An event frame. */
export const EventFrameSchema: z.ZodType<EventFrame> = built.EventFrameSchema;
/** Any output frame. */
export const OutputFrameSchema: z.ZodType<OutputFrame> = built.OutputFrameSchema;
