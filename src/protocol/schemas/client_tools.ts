/**
 * `client.tools` extension (`shared/spec/client-tools.md`): tool definitions, the
 * descriptor, call/cancel event data and `client.tool.result`, as object types with their
 * schemas typed as them.
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

/** A tool's effect: `read` runs without approval, `write` goes through approval. */
export type ToolEffect = "read" | "write";

/** One client tool definition in `initialize` params `client_tools`. */
export type ClientToolDefinition = {
  name: string;
  /** 1–1024 UTF-8 bytes, no control characters but LF and tab. */
  description: string;
  /** A JSON Schema object with root `"type":"object"`, bounded in bytes and depth. */
  input_schema: Record<string, unknown>;
  effect: ToolEffect;
  timeout_ms?: number;
};
/** The `client_tools` list: at most 32 definitions with unique names. */
export type ClientToolDefinitions = ClientToolDefinition[];

/** `client.tools` descriptor limits: every name of `CLIENT_TOOLS_LIMITS`, integers. */
export type ClientToolsLimitsObject = { -readonly [K in keyof typeof CLIENT_TOOLS_LIMITS]: number };

/** One registered tool in the descriptor. */
export type RegisteredClientTool = {
  name: string;
  tool_id: string;
};

/** `descriptors["client.tools"]` of the initialization result. */
export type ClientToolsDescriptor = {
  version: 1;
  tools: RegisteredClientTool[];
  limits: ClientToolsLimitsObject;
};

/**
 * `client.tool.call` event data. `arguments` is what the model produced, not validated by the
 * backend; at most the protocol's default `arguments_bytes` (clients check the advertised
 * value with {@link clientToolCallDataSchema}).
 */
export type ClientToolCallData = {
  session_id: string;
  run_id: string;
  call_id: string;
  name: string;
  tool_id: string;
  arguments: Record<string, unknown>;
  deadline_ms: number;
};
/** The schema of {@link ClientToolCallData}. */
export type ClientToolCallDataShape = z.ZodType<ClientToolCallData>;

/** Why the backend cancels a call. */
export type ClientToolCancelReason = "run_cancelled" | "deadline" | "shutdown" | "run_failed";

/** `client.tool.cancel` event data. */
export type ClientToolCancelData = {
  session_id: string;
  run_id: string;
  call_id: string;
  reason: ClientToolCancelReason;
};

/** Outcome of a client tool call. */
export type ClientToolOutcome = "success" | "error" | "cancelled";

/**
 * `client.tool.result` params. `error_code` only with `outcome:"error"`. `part`
 * has no upper bound here: exceeding `result_parts` is `result_limit`, not a shape error.
 */
export type ClientToolResultParams = {
  session_id: string;
  run_id: string;
  call_id: string;
  part: number;
  last_part: boolean;
  outcome: ClientToolOutcome;
  error_code?: string;
  text: string;
};

/** `client.tool.result` result. */
export type ClientToolResultResult = {
  recorded: true;
  complete: boolean;
};

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

/** The definitions: what `initialize` sends. */
function definitions() {
  const ToolEffectSchema = z.enum(["read", "write"]);
  const ClientToolDefinitionSchema = z.strictObject({
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
  const ClientToolDefinitionsSchema = z.array(ClientToolDefinitionSchema)
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
  return { ToolEffectSchema, ClientToolDefinitionSchema, ClientToolDefinitionsSchema };
}

/** The descriptor: what `initialize` answers. */
function descriptor() {
  const positiveInt = z.int().min(1);
  const ClientToolsLimitsSchema = z.strictObject({
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
  const RegisteredClientToolSchema = z.strictObject({ name: ToolNameSchema, tool_id: Hex64Schema });
  const ClientToolsDescriptorSchema = z.strictObject({
    version: z.literal(1),
    tools: z.array(RegisteredClientToolSchema).max(CLIENT_TOOLS_LIMITS.tools),
    limits: ClientToolsLimitsSchema,
  });
  return { ClientToolsLimitsSchema, RegisteredClientToolSchema, ClientToolsDescriptorSchema };
}

/** `client.tool.call` data with `arguments` of at most `argumentsBytes` serialized bytes. */
function callData(argumentsBytes: number) {
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

/** The calls: the events that ask and cancel, and the result the client sends. */
function calls() {
  const ClientToolCancelReasonSchema = z.enum([
    "run_cancelled",
    "deadline",
    "shutdown",
    "run_failed",
  ]);
  const ClientToolOutcomeSchema = z.enum(["success", "error", "cancelled"]);
  return {
    ClientToolCallDataSchema: callData(CLIENT_TOOLS_LIMITS.arguments_bytes),
    ClientToolCancelReasonSchema,
    ClientToolCancelDataSchema: z.strictObject({
      session_id: SessionIdSchema,
      run_id: WireIdSchema,
      call_id: WireIdSchema,
      reason: ClientToolCancelReasonSchema,
    }),
    ClientToolOutcomeSchema,
    ClientToolResultParamsSchema: z.strictObject({
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
    }),
    ClientToolResultResultSchema: z.strictObject({
      recorded: z.literal(true),
      complete: z.boolean(),
    }),
  };
}

function build() {
  return { ...definitions(), ...descriptor(), ...calls() };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type ClientToolSchemas = ReturnType<typeof build>;
const built: ClientToolSchemas = build();

/** A tool's effect. */
export const ToolEffectSchema: z.ZodType<ToolEffect> = built.ToolEffectSchema;
/** One client tool definition. */
export const ClientToolDefinitionSchema: z.ZodType<ClientToolDefinition> =
  built.ClientToolDefinitionSchema;
/** `client_tools`: at most 32 definitions with unique names (an empty list is allowed). */
export const ClientToolDefinitionsSchema: z.ZodType<ClientToolDefinitions> =
  built.ClientToolDefinitionsSchema;
/** `client.tools` descriptor limits. */
export const ClientToolsLimitsSchema: z.ZodType<ClientToolsLimitsObject> =
  built.ClientToolsLimitsSchema;
/** One registered tool in the descriptor. */
export const RegisteredClientToolSchema: z.ZodType<RegisteredClientTool> =
  built.RegisteredClientToolSchema;
/** `descriptors["client.tools"]`. */
export const ClientToolsDescriptorSchema: z.ZodType<ClientToolsDescriptor> =
  built.ClientToolsDescriptorSchema;

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
  return callData(argumentsBytes);
}

/** `client.tool.call` event data, `arguments` within the protocol's default bound. */
export const ClientToolCallDataSchema: ClientToolCallDataShape = built.ClientToolCallDataSchema;
/** Why the backend cancels a call. */
export const ClientToolCancelReasonSchema: z.ZodType<ClientToolCancelReason> =
  built.ClientToolCancelReasonSchema;
/** `client.tool.cancel` event data. */
export const ClientToolCancelDataSchema: z.ZodType<ClientToolCancelData> =
  built.ClientToolCancelDataSchema;
/** Outcome of a client tool call. */
export const ClientToolOutcomeSchema: z.ZodType<ClientToolOutcome> = built.ClientToolOutcomeSchema;
/** `client.tool.result` params. */
export const ClientToolResultParamsSchema: z.ZodType<ClientToolResultParams> =
  built.ClientToolResultParamsSchema;
/** `client.tool.result` result. */
export const ClientToolResultResultSchema: z.ZodType<ClientToolResultResult> =
  built.ClientToolResultResultSchema;
