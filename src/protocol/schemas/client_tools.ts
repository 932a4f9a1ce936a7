/**
 * `client.tools` extension schemas (`shared/spec/client-tools.md`): tool
 * definitions, the descriptor, call/cancel event data and `client.tool.result`.
 *
 * @module
 */

import { z } from "zod";
import { CLIENT_TOOL_MIN_TIMEOUT_MS, CLIENT_TOOLS_LIMITS } from "../limits.ts";
import {
  boundedString,
  CodeSchema,
  Hex64Schema,
  jsonDepth,
  JsonObjectSchema,
  SessionIdSchema,
  WireIdSchema,
} from "./common.ts";
import { utf8ByteLength } from "../utf8.ts";

/** The extension's capability name. */
export const CLIENT_TOOLS_CAPABILITY = "client.tools";

/** Client tool name grammar: `^[A-Za-z][A-Za-z0-9_-]{0,63}$`. */
export const TOOL_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** A client tool name. */
export const ToolNameSchema: z.ZodString = z.string().regex(TOOL_NAME_PATTERN);

/** A tool definition's `input_schema`: a JSON Schema object with root `"type":"object"`, bounded. */
export const ToolInputSchemaSchema: z.ZodRecord<z.ZodString, z.ZodUnknown> = JsonObjectSchema.check(
  (ctx) => {
    const value = ctx.value;
    if (value["type"] !== "object") {
      ctx.issues.push({
        code: "custom",
        message: 'Input schema root must have "type":"object"',
        input: value,
      });
    }
    const bytes = utf8ByteLength(JSON.stringify(value));
    if (bytes > CLIENT_TOOLS_LIMITS.schema_bytes) {
      ctx.issues.push({
        code: "custom",
        message:
          `Input schema exceeds ${CLIENT_TOOLS_LIMITS.schema_bytes} serialized bytes: ${bytes}`,
        input: value,
      });
    }
    const depth = jsonDepth(value, CLIENT_TOOLS_LIMITS.schema_depth);
    if (depth > CLIENT_TOOLS_LIMITS.schema_depth) {
      ctx.issues.push({
        code: "custom",
        message: `Input schema nests more than ${CLIENT_TOOLS_LIMITS.schema_depth} containers`,
        input: value,
      });
    }
  },
);

/** A tool's effect: `read` runs without approval, `write` goes through approval. */
export const ToolEffectSchema: z.ZodEnum<{ read: "read"; write: "write" }> = z.enum([
  "read",
  "write",
]);
/** A tool's effect. */
export type ToolEffect = z.infer<typeof ToolEffectSchema>;

/** One client tool definition in `initialize` params `client_tools`. */
export const ClientToolDefinitionSchema: z.ZodObject<
  {
    name: z.ZodString;
    description: z.ZodString;
    input_schema: z.ZodRecord<z.ZodString, z.ZodUnknown>;
    effect: z.ZodEnum<{ read: "read"; write: "write" }>;
    timeout_ms: z.ZodExactOptional<z.ZodInt>;
  },
  z.core.$strict
> = z.strictObject({
  name: ToolNameSchema,
  description: boundedString(CLIENT_TOOLS_LIMITS.description_bytes, {
    minBytes: 1,
    controls: "except_lf_tab",
  }),
  input_schema: ToolInputSchemaSchema,
  effect: ToolEffectSchema,
  timeout_ms: z.exactOptional(
    z.int().min(CLIENT_TOOL_MIN_TIMEOUT_MS).max(CLIENT_TOOLS_LIMITS.max_timeout_ms),
  ),
});
/** One client tool definition. */
export type ClientToolDefinition = z.infer<typeof ClientToolDefinitionSchema>;

/** `client_tools`: at most 32 definitions with unique names (an empty list is allowed). */
export const ClientToolDefinitionsSchema: z.ZodArray<typeof ClientToolDefinitionSchema> = z.array(
  ClientToolDefinitionSchema,
)
  .max(CLIENT_TOOLS_LIMITS.tools)
  .check((ctx) => {
    const seen = new Set<string>();
    ctx.value.forEach((tool, index) => {
      if (seen.has(tool.name)) {
        ctx.issues.push({
          code: "custom",
          message: `Duplicate client tool name: ${tool.name}`,
          input: ctx.value,
          path: [index, "name"],
        });
      }
      seen.add(tool.name);
    });
  });
/** The `client_tools` list. */
export type ClientToolDefinitions = z.infer<typeof ClientToolDefinitionsSchema>;

const positiveInt: z.ZodInt = z.int().min(1);

/** `client.tools` descriptor limits: every name of `CLIENT_TOOLS_LIMITS`, integers. */
export const ClientToolsLimitsSchema: z.ZodObject<
  {
    tools: z.ZodInt;
    name_bytes: z.ZodInt;
    description_bytes: z.ZodInt;
    schema_bytes: z.ZodInt;
    schema_depth: z.ZodInt;
    arguments_bytes: z.ZodInt;
    result_part_bytes: z.ZodInt;
    result_bytes: z.ZodInt;
    result_parts: z.ZodInt;
    call_timeout_ms: z.ZodInt;
    max_timeout_ms: z.ZodInt;
    concurrent_calls: z.ZodInt;
    calls_per_run: z.ZodInt;
    cancel_grace_ms: z.ZodInt;
  },
  z.core.$strict
> = z.strictObject({
  tools: z.int().min(0),
  name_bytes: positiveInt,
  description_bytes: positiveInt,
  schema_bytes: positiveInt,
  schema_depth: positiveInt,
  arguments_bytes: positiveInt,
  result_part_bytes: positiveInt,
  result_bytes: positiveInt,
  result_parts: positiveInt,
  call_timeout_ms: positiveInt,
  max_timeout_ms: positiveInt,
  concurrent_calls: positiveInt,
  calls_per_run: positiveInt,
  cancel_grace_ms: z.int().min(0),
});
/** `client.tools` descriptor limits. */
export type ClientToolsLimitsObject = z.infer<typeof ClientToolsLimitsSchema>;

/** One registered tool in the descriptor. */
export const RegisteredClientToolSchema: z.ZodObject<
  { name: z.ZodString; tool_id: z.ZodString },
  z.core.$strict
> = z.strictObject({
  name: ToolNameSchema,
  tool_id: Hex64Schema,
});
/** One registered tool in the descriptor. */
export type RegisteredClientTool = z.infer<typeof RegisteredClientToolSchema>;

/** `descriptors["client.tools"]` of the initialization result. */
export const ClientToolsDescriptorSchema: z.ZodObject<
  {
    version: z.ZodLiteral<1>;
    tools: z.ZodArray<typeof RegisteredClientToolSchema>;
    limits: typeof ClientToolsLimitsSchema;
  },
  z.core.$strict
> = z.strictObject({
  version: z.literal(1),
  tools: z.array(RegisteredClientToolSchema).max(CLIENT_TOOLS_LIMITS.tools),
  limits: ClientToolsLimitsSchema,
});
/** `descriptors["client.tools"]`. */
export type ClientToolsDescriptor = z.infer<typeof ClientToolsDescriptorSchema>;

/** The shape of {@link ClientToolCallDataSchema}. */
export type ClientToolCallDataShape = z.ZodObject<
  {
    session_id: z.ZodString;
    run_id: z.ZodString;
    call_id: z.ZodString;
    name: z.ZodString;
    tool_id: z.ZodString;
    arguments: z.ZodRecord<z.ZodString, z.ZodUnknown>;
    deadline_ms: z.ZodInt;
  },
  z.core.$strict
>;

/**
 * `client.tool.call` event data with `arguments` of at most `argumentsBytes` serialized
 * bytes — a client passes the `arguments_bytes` its backend advertised.
 *
 * @example
 * ```ts
 * import { clientToolCallDataSchema } from "./client_tools.ts";
 * const schema = clientToolCallDataSchema(16);
 * const data = {
 *   session_id: "s1", run_id: "r1", call_id: "c1", name: "lookup",
 *   tool_id: "0".repeat(64), arguments: { q: "a long question" }, deadline_ms: 1000,
 * };
 * console.assert(!schema.safeParse(data).success);
 * ```
 */
export function clientToolCallDataSchema(argumentsBytes: number): ClientToolCallDataShape {
  return z.strictObject({
    session_id: SessionIdSchema,
    run_id: WireIdSchema,
    call_id: WireIdSchema,
    name: ToolNameSchema,
    tool_id: Hex64Schema,
    arguments: JsonObjectSchema.check((ctx) => {
      const bytes = utf8ByteLength(JSON.stringify(ctx.value));
      if (bytes > argumentsBytes) {
        ctx.issues.push({
          code: "custom",
          message: `Arguments exceed ${argumentsBytes} serialized bytes: ${bytes}`,
          input: ctx.value,
        });
      }
    }),
    deadline_ms: z.int().min(0),
  });
}

/**
 * `client.tool.call` event data. `arguments` is what the model produced, not validated by the
 * backend; at most the protocol's default `arguments_bytes` (clients check the advertised
 * value with {@link clientToolCallDataSchema}).
 */
export const ClientToolCallDataSchema: ClientToolCallDataShape = clientToolCallDataSchema(
  CLIENT_TOOLS_LIMITS.arguments_bytes,
);
/** `client.tool.call` event data. */
export type ClientToolCallData = z.infer<typeof ClientToolCallDataSchema>;

/** Why the backend cancels a call. */
export const ClientToolCancelReasonSchema: z.ZodEnum<
  {
    run_cancelled: "run_cancelled";
    deadline: "deadline";
    shutdown: "shutdown";
    run_failed: "run_failed";
  }
> = z.enum([
  "run_cancelled",
  "deadline",
  "shutdown",
  "run_failed",
]);
/** Why the backend cancels a call. */
export type ClientToolCancelReason = z.infer<typeof ClientToolCancelReasonSchema>;

/** `client.tool.cancel` event data. */
export const ClientToolCancelDataSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    run_id: z.ZodString;
    call_id: z.ZodString;
    reason: typeof ClientToolCancelReasonSchema;
  },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  run_id: WireIdSchema,
  call_id: WireIdSchema,
  reason: ClientToolCancelReasonSchema,
});
/** `client.tool.cancel` event data. */
export type ClientToolCancelData = z.infer<typeof ClientToolCancelDataSchema>;

/** Outcome of a client tool call. */
export const ClientToolOutcomeSchema: z.ZodEnum<
  { error: "error"; success: "success"; cancelled: "cancelled" }
> = z.enum(["success", "error", "cancelled"]);
/** Outcome of a client tool call. */
export type ClientToolOutcome = z.infer<typeof ClientToolOutcomeSchema>;

/**
 * `client.tool.result` params. `error_code` only with `outcome:"error"`. `part`
 * has no upper bound here: exceeding `result_parts` is `result_limit`, not a shape error.
 */
export const ClientToolResultParamsSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    run_id: z.ZodString;
    call_id: z.ZodString;
    part: z.ZodInt;
    last_part: z.ZodBoolean;
    outcome: typeof ClientToolOutcomeSchema;
    error_code: z.ZodExactOptional<z.ZodString>;
    text: z.ZodString;
  },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  run_id: WireIdSchema,
  call_id: WireIdSchema,
  part: z.int().min(0),
  last_part: z.boolean(),
  outcome: ClientToolOutcomeSchema,
  error_code: z.exactOptional(CodeSchema),
  text: boundedString(CLIENT_TOOLS_LIMITS.result_part_bytes),
}).check((ctx) => {
  if (ctx.value.error_code !== undefined && ctx.value.outcome !== "error") {
    ctx.issues.push({
      code: "custom",
      message: 'error_code is allowed only with outcome "error"',
      input: ctx.value,
      path: ["error_code"],
    });
  }
});
/** `client.tool.result` params. */
export type ClientToolResultParams = z.infer<typeof ClientToolResultParamsSchema>;

/** `client.tool.result` result. */
export const ClientToolResultResultSchema: z.ZodObject<
  { recorded: z.ZodLiteral<true>; complete: z.ZodBoolean },
  z.core.$strict
> = z.strictObject({
  recorded: z.literal(true),
  complete: z.boolean(),
});
/** `client.tool.result` result. */
export type ClientToolResultResult = z.infer<typeof ClientToolResultResultSchema>;
