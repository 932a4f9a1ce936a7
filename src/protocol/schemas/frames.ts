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
export const RequestFrameSchema: z.ZodObject<
  {
    id: z.ZodString;
    method: z.ZodString;
    params: z.ZodRecord<z.ZodString, z.ZodUnknown>;
    protocol: z.ZodLiteral<"magi-code.local-agent">;
    version: z.ZodLiteral<1>;
  },
  z.core.$strict
> = z.strictObject({
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
export const ResultResponseFrameSchema: z.ZodObject<
  {
    type: z.ZodLiteral<"response">;
    id: z.ZodNullable<z.ZodString>;
    result: z.ZodRecord<z.ZodString, z.ZodUnknown>;
    instance_id: z.ZodString;
    seq: z.ZodInt;
    protocol: z.ZodLiteral<"magi-code.local-agent">;
    version: z.ZodLiteral<1>;
  },
  z.core.$strict
> = z.strictObject({
  ...outputEnvelope,
  type: z.literal("response"),
  id: WireIdSchema.nullable(),
  result: JsonObjectSchema,
});
/** A success response frame. */
export type ResultResponseFrame = z.infer<typeof ResultResponseFrameSchema>;

/** An error response: `error` exactly `{ code }`, no `result`. */
export const ErrorResponseFrameSchema: z.ZodObject<
  {
    type: z.ZodLiteral<"response">;
    id: z.ZodNullable<z.ZodString>;
    error: z.ZodObject<{ code: z.ZodString }, z.core.$strict>;
    instance_id: z.ZodString;
    seq: z.ZodInt;
    protocol: z.ZodLiteral<"magi-code.local-agent">;
    version: z.ZodLiteral<1>;
  },
  z.core.$strict
> = z.strictObject({
  ...outputEnvelope,
  type: z.literal("response"),
  id: WireIdSchema.nullable(),
  error: ErrorObjectSchema,
});
/** An error response frame. */
export type ErrorResponseFrame = z.infer<typeof ErrorResponseFrameSchema>;

/** A response frame: exactly one of `result` / `error`. `id` is null for unusable request identity. */
export const ResponseFrameSchema: z.ZodUnion<
  readonly [typeof ResultResponseFrameSchema, typeof ErrorResponseFrameSchema]
> = z.union([ResultResponseFrameSchema, ErrorResponseFrameSchema]);
/** A response frame. */
export type ResponseFrame = z.infer<typeof ResponseFrameSchema>;

/** An event frame with a known event name and object data. */
export const EventFrameSchema: z.ZodObject<
  {
    type: z.ZodLiteral<"event">;
    event: z.ZodEnum<
      {
        "input.persisted": "input.persisted";
        "message.delta": "message.delta";
        "message.reconcile": "message.reconcile";
        activity: "activity";
        "approval.requested": "approval.requested";
        diagnostic: "diagnostic";
        "run.finished": "run.finished";
        "client.tool.call": "client.tool.call";
        "client.tool.cancel": "client.tool.cancel";
        "tool.card": "tool.card";
      }
    >;
    data: z.ZodRecord<z.ZodString, z.ZodUnknown>;
    instance_id: z.ZodString;
    seq: z.ZodInt;
    protocol: z.ZodLiteral<"magi-code.local-agent">;
    version: z.ZodLiteral<1>;
  },
  z.core.$strict
> = z.strictObject({
  ...outputEnvelope,
  type: z.literal("event"),
  event: z.enum(EVENT_NAMES),
  data: JsonObjectSchema,
});
/** An event frame. */
export type EventFrame = z.infer<typeof EventFrameSchema>;

/** Any output frame (fail closed on other types). */
export const OutputFrameSchema: z.ZodUnion<
  readonly [typeof ResponseFrameSchema, typeof EventFrameSchema]
> = z.union([ResponseFrameSchema, EventFrameSchema]);
/** Any output frame. */
export type OutputFrame = z.infer<typeof OutputFrameSchema>;
