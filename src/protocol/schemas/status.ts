/**
 * `status` and `shutdown`: object types, their schemas typed as them.
 *
 * @module
 */

import { z } from "zod";
import { CATALOG_STRING_BYTES } from "../limits.ts";
import { STARTUP_ERROR_CODES, type StartupErrorCode } from "../errors.ts";
import {
  boundedString,
  type EmptyParams,
  EmptyParamsSchema,
  Hex64Schema,
  SessionIdSchema,
  WireIdSchema,
} from "./common.ts";
import { type Selection, SelectionSchema } from "./selection.ts";

/** `status.state`. */
export type StatusState = "starting" | "idle" | "running" | "failed";

/** `status.readiness`: `initializing`, `ready` or the safe startup error code. */
export type Readiness = "initializing" | "ready" | StartupErrorCode;

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
export type Status = {
  state: StatusState;
  readiness: Readiness;
  provider: string | null;
  model: string | null;
  context_id: string | null;
  session_id: string | null;
  run_id: string | null;
  selection?: Selection | null;
};

/** `status` params: exactly `{}`. */
export type StatusParams = EmptyParams;
/** `status` result. */
export type StatusResult = Status;
/** `shutdown` params: exactly `{}`. */
export type ShutdownParams = EmptyParams;
/** `shutdown` result: exactly `{ "state": "stopping" }`. */
export type ShutdownResult = {
  state: "stopping";
};

function build() {
  const StatusStateSchema = z.enum(["starting", "idle", "running", "failed"]);
  const ReadinessSchema = z.enum(["initializing", "ready", ...STARTUP_ERROR_CODES]);
  const ProviderName = boundedString(CATALOG_STRING_BYTES, { minBytes: 1, controls: "all" });
  const StatusSchema = z.strictObject({
    state: StatusStateSchema,
    readiness: ReadinessSchema,
    provider: ProviderName.nullable(),
    model: ProviderName.nullable(),
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
  const ShutdownResultSchema = z.strictObject({ state: z.literal("stopping") });
  return { StatusStateSchema, ReadinessSchema, StatusSchema, ShutdownResultSchema };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type StatusSchemas = ReturnType<typeof build>;
const built: StatusSchemas = build();

/** `status.state`. */
export const StatusStateSchema: z.ZodType<StatusState> = built.StatusStateSchema;
/** `status.readiness`. */
export const ReadinessSchema: z.ZodType<Readiness> = built.ReadinessSchema;
/** The status object. */
export const StatusSchema: z.ZodType<Status> = built.StatusSchema;
/** `status` params. */
export const StatusParamsSchema: z.ZodType<StatusParams> = EmptyParamsSchema;
/** `status` result. */
export const StatusResultSchema: z.ZodType<StatusResult> = StatusSchema;
/** `shutdown` params. */
export const ShutdownParamsSchema: z.ZodType<ShutdownParams> = EmptyParamsSchema;
/** `shutdown` result. */
export const ShutdownResultSchema: z.ZodType<ShutdownResult> = built.ShutdownResultSchema;
