/**
 * `status` and `shutdown` schemas.
 *
 * @module
 */

import { z } from "zod";
import { CATALOG_STRING_BYTES } from "../limits.ts";
import { STARTUP_ERROR_CODES } from "../errors.ts";
import {
  boundedString,
  EmptyParamsSchema,
  Hex64Schema,
  SessionIdSchema,
  WireIdSchema,
} from "./common.ts";
import { SelectionSchema } from "./selection.ts";

/** `status.state`. */
export const StatusStateSchema: z.ZodEnum<
  { starting: "starting"; idle: "idle"; running: "running"; failed: "failed" }
> = z.enum(["starting", "idle", "running", "failed"]);
/** `status.state`. */
export type StatusState = z.infer<typeof StatusStateSchema>;

/** `status.readiness`: `initializing`, `ready` or the safe startup error code. */
export const ReadinessSchema: z.ZodEnum<
  {
    initializing: "initializing";
    ready: "ready";
    configuration_invalid: "configuration_invalid";
    provider_unavailable: "provider_unavailable";
    profile_invalid: "profile_invalid";
    mcp_unavailable: "mcp_unavailable";
    startup_cancelled: "startup_cancelled";
    startup_failed: "startup_failed";
  }
> = z.enum(["initializing", "ready", ...STARTUP_ERROR_CODES]);
/** `status.readiness`. */
export type Readiness = z.infer<typeof ReadinessSchema>;

const ProviderNameSchema: z.ZodString = boundedString(CATALOG_STRING_BYTES, {
  minBytes: 1,
  controls: "all",
});

/**
 * The status object (result of `status`, and `status` in the initialization result).
 *
 * Rules enforced beyond shape: `starting` ⇔ `initializing` with null
 * provider/model/context; `idle`/`running` ⇔ `ready` with a context ID;
 * `failed` ⇔ a startup error code. `selection` is optional: the base protocol
 * calls it a "new optional result field" (the wire contract lists it; the
 * reference backend always sends it), and it is null before readiness and after
 * failed startup.
 */
export const StatusSchema: z.ZodObject<
  {
    state: typeof StatusStateSchema;
    readiness: typeof ReadinessSchema;
    provider: z.ZodNullable<z.ZodString>;
    model: z.ZodNullable<z.ZodString>;
    context_id: z.ZodNullable<z.ZodString>;
    session_id: z.ZodNullable<z.ZodString>;
    run_id: z.ZodNullable<z.ZodString>;
    selection: z.ZodExactOptional<z.ZodNullable<typeof SelectionSchema>>;
  },
  z.core.$strict
> = z.strictObject({
  state: StatusStateSchema,
  readiness: ReadinessSchema,
  provider: ProviderNameSchema.nullable(),
  model: ProviderNameSchema.nullable(),
  context_id: Hex64Schema.nullable(),
  session_id: SessionIdSchema.nullable(),
  run_id: WireIdSchema.nullable(),
  selection: z.exactOptional(SelectionSchema.nullable()),
}).check((ctx) => {
  const s = ctx.value;
  const fail = (message: string) => ctx.issues.push({ code: "custom", message, input: s });
  switch (s.state) {
    case "starting":
      if (s.readiness !== "initializing") {
        fail('State "starting" requires readiness "initializing"');
      }
      if (s.provider !== null || s.model !== null || s.context_id !== null) {
        fail('State "starting" requires null provider, model and context_id');
      }
      if (s.selection !== undefined && s.selection !== null) {
        fail('State "starting" requires a null selection');
      }
      break;
    case "idle":
    case "running":
      if (s.readiness !== "ready") fail(`State "${s.state}" requires readiness "ready"`);
      if (s.context_id === null) fail(`State "${s.state}" requires a context_id`);
      break;
    case "failed":
      if (s.readiness === "initializing" || s.readiness === "ready") {
        fail('State "failed" requires a startup error code as readiness');
      }
      if (s.selection !== undefined && s.selection !== null) {
        fail('State "failed" requires a null selection');
      }
      break;
  }
});
/** The status object. */
export type Status = z.infer<typeof StatusSchema>;

/** `status` params: exactly `{}`. */
export const StatusParamsSchema: typeof EmptyParamsSchema = EmptyParamsSchema;
/** `status` params. */
export type StatusParams = z.infer<typeof StatusParamsSchema>;
/** `status` result. */
export const StatusResultSchema: typeof StatusSchema = StatusSchema;
/** `status` result. */
export type StatusResult = Status;

/** `shutdown` params: exactly `{}`. */
export const ShutdownParamsSchema: typeof EmptyParamsSchema = EmptyParamsSchema;
/** `shutdown` params. */
export type ShutdownParams = z.infer<typeof ShutdownParamsSchema>;
/** `shutdown` result: exactly `{ "state": "stopping" }`. */
export const ShutdownResultSchema: z.ZodObject<
  { state: z.ZodLiteral<"stopping"> },
  z.core.$strict
> = z.strictObject({ state: z.literal("stopping") });
/** `shutdown` result. */
export type ShutdownResult = z.infer<typeof ShutdownResultSchema>;
