/**
 * A tool as plain data: what the describe child reports for each module, and
 * what the host keeps of a process-isolated tool, whose module it never
 * imports (its top-level code runs only in a zero-permission child and in
 * the tool's own process).
 *
 * @module
 */

import { z } from "zod";
import type {
  PermissionGrant,
  Tool,
  ToolAnnotations,
  ToolEffect,
  ToolInfo,
  ToolPermissions,
} from "../tool/define.ts";

/** The input schema as JSON Schema (draft 2020-12, input side), or why it cannot be converted. */
export type InputSchemaResult =
  | { readonly schema: Record<string, unknown>; readonly error?: undefined }
  | { readonly schema?: undefined; readonly error: string };

/** One tool as JSON: every field of its definition except the code. */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  readonly effect: ToolEffect;
  readonly timeoutMs?: number;
  readonly permissions?: ToolPermissions;
  readonly isolation?: "process" | "inline";
  readonly memoryMb?: number;
  readonly maxResultBytes?: number;
  readonly overflow?: "error" | "truncate" | "spill";
  readonly title?: string;
  readonly annotations?: ToolAnnotations;
  /** `z.toJSONSchema(input, { target: "draft-2020-12", io: "input" })`, or its error message. */
  readonly input: InputSchemaResult;
  /** The `output` schema's JSON Schema (output side), or its error message; absent: none. */
  readonly output?: InputSchemaResult;
}

/**
 * Brand of {@link DescribedTool}.
 *
 * @internal
 */
export const DESCRIBED_MARK: unique symbol = Symbol.for("magi-tools.described-tool") as never;

/** A process-isolated tool as the host holds it: its description, no code. */
export interface DescribedTool extends ToolInfo {
  /** The input JSON Schema (or its conversion error), as the describe child computed it. */
  readonly inputSchema: InputSchemaResult;
  /** The output JSON Schema (or its conversion error); absent when the tool declares none. */
  readonly outputSchema?: InputSchemaResult;
  /** Brand. */
  readonly [DESCRIBED_MARK]: true;
}

/** A tool the host registered: a `defineTool` result, or a process tool's description. */
export type AnyTool = Tool | DescribedTool;

/** Whether `tool` is a {@link DescribedTool} (no code in the host). */
export function isDescribedTool(tool: unknown): tool is DescribedTool {
  return typeof tool === "object" && tool !== null &&
    (tool as Record<PropertyKey, unknown>)[DESCRIBED_MARK] === true;
}

/**
 * The input schema of a zod object schema as JSON Schema, or the conversion
 * error: every field at fault with its path and zod's reason
 * (`when: Date cannot be represented in JSON Schema; tags[]: …`).
 */
export function inputSchemaOf(input: z.ZodObject): InputSchemaResult {
  return schemaOf(input, "input");
}

/** The output schema of a zod object schema as JSON Schema (output side), or the error. */
export function outputSchemaOf(output: z.ZodObject): InputSchemaResult {
  return schemaOf(output, "output");
}

/**
 * A tool's output JSON Schema: a `defineTool` result's converted, a described tool's as the
 * describe child computed it; undefined when it declares none.
 */
export function toolOutputSchema(tool: AnyTool): InputSchemaResult | undefined {
  if (isDescribedTool(tool)) return tool.outputSchema;
  return tool.output === undefined ? undefined : outputSchemaOf(tool.output);
}

function schemaOf(input: z.ZodObject, io: "input" | "output"): InputSchemaResult {
  try {
    return { schema: toJsonSchema(input, io) };
  } catch (error) {
    const faults = schemaFaults(input, "");
    return {
      error: faults.length > 0
        ? faults.map(({ path, reason }) => `${path}: ${reason}`).join("; ")
        : messageOf(error),
    };
  }
}

function toJsonSchema(
  schema: z.core.$ZodType,
  io: "input" | "output" = "input",
): Record<string, unknown> {
  return { ...z.toJSONSchema(schema, { target: "draft-2020-12", io }) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Zod 4's definition fields the fault search follows (any copy of zod 4). */
interface ZodDef {
  readonly type?: unknown;
  readonly shape?: Record<string, z.core.$ZodType>;
  readonly element?: z.core.$ZodType;
  readonly innerType?: z.core.$ZodType;
  readonly in?: z.core.$ZodType;
  readonly options?: readonly z.core.$ZodType[];
  readonly valueType?: z.core.$ZodType;
}

/** The sub-schemas of `schema` with the path suffix each is reached by. */
function childrenOf(schema: z.core.$ZodType, path: string): [string, z.core.$ZodType][] {
  const def = (schema as { _zod?: { def?: ZodDef } })._zod?.def;
  if (def === undefined) return [];
  const dot = path === "" ? "" : `${path}.`;
  if (def.shape !== undefined && def.type === "object") {
    return Object.entries(def.shape).map(([key, value]) => [`${dot}${key}`, value]);
  }
  if (def.type === "array" && def.element !== undefined) return [[`${path}[]`, def.element]];
  if (def.type === "record" && def.valueType !== undefined) {
    return [[`${path}{}`, def.valueType]];
  }
  if (def.type === "union" && def.options !== undefined) {
    return def.options.map((option) => [path, option]);
  }
  if (def.type === "pipe" && def.in !== undefined) return [[path, def.in]];
  if (def.innerType !== undefined) return [[path, def.innerType]];
  return [];
}

/** Every innermost sub-schema of `schema` that zod cannot convert, with its path. */
function schemaFaults(
  schema: z.core.$ZodType,
  path: string,
  depth = 0,
): { path: string; reason: string }[] {
  try {
    toJsonSchema(schema);
    return [];
  } catch (error) {
    const below = depth < 32
      ? childrenOf(schema, path).flatMap(([sub, child]) => schemaFaults(child, sub, depth + 1))
      : [];
    if (below.length > 0) {
      // The same field reached through several union options is named once.
      const seen = new Set<string>();
      return below.filter((fault) => {
        const key = `${fault.path}\u0000${fault.reason}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    return [{ path: path === "" ? "(root)" : path, reason: messageOf(error) }];
  }
}

/** {@link ToolDescription} of a `defineTool` result (JSON-safe). */
export function describeTool(tool: Tool): ToolDescription {
  return {
    ...sandboxFieldsOf(tool),
    description: tool.description,
    effect: tool.effect,
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.annotations === undefined ? {} : { annotations: { ...tool.annotations } }),
    ...(tool.maxResultBytes === undefined ? {} : { maxResultBytes: tool.maxResultBytes }),
    ...(tool.overflow === undefined ? {} : { overflow: tool.overflow }),
    input: inputSchemaOf(tool.input),
    ...(tool.output === undefined ? {} : { output: outputSchemaOf(tool.output) }),
  };
}

/**
 * The fields that decide a tool's privileges and identity (name, effect,
 * isolation, permissions, memory cap, timeout), as one JSON text: the tool's runner compares its own with the host's copy before
 * any call, so a description altered by another module in the shared
 * describe child cannot widen a tool's permissions.
 */
export function sandboxFingerprint(tool: ToolInfo): string {
  return JSON.stringify(sandboxFieldsOf(tool));
}

function sandboxFieldsOf(tool: ToolInfo) {
  const permissions: Record<string, PermissionGrant> = {};
  for (const key of ["read", "write", "net", "env", "run", "sys", "ffi"] as const) {
    const grant = tool.permissions?.[key];
    if (grant !== undefined) permissions[key] = Array.isArray(grant) ? [...grant] : grant;
  }
  return {
    name: tool.name,
    effect: tool.effect,
    isolation: tool.isolation ?? "process",
    permissions,
    ...(tool.memoryMb === undefined ? {} : { memoryMb: tool.memoryMb }),
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
  };
}

/** The host's frozen {@link DescribedTool} for a description. */
export function describedTool(description: ToolDescription): DescribedTool {
  const permissions = description.permissions === undefined ? undefined : Object.freeze(
    Object.fromEntries(
      Object.entries(description.permissions).map((
        [key, grant],
      ) => [key, Array.isArray(grant) ? Object.freeze([...grant]) : grant]),
    ),
  ) as ToolPermissions;
  return Object.freeze({
    name: description.name,
    description: description.description,
    effect: description.effect,
    ...(description.timeoutMs === undefined ? {} : { timeoutMs: description.timeoutMs }),
    ...(permissions === undefined ? {} : { permissions }),
    isolation: description.isolation ?? "process",
    ...(description.memoryMb === undefined ? {} : { memoryMb: description.memoryMb }),
    ...(description.title === undefined ? {} : { title: description.title }),
    ...(description.maxResultBytes === undefined
      ? {}
      : { maxResultBytes: description.maxResultBytes }),
    ...(description.overflow === undefined ? {} : { overflow: description.overflow }),
    ...(description.annotations === undefined
      ? {}
      : { annotations: Object.freeze({ ...description.annotations }) }),
    inputSchema: Object.freeze(description.input),
    ...(description.output === undefined
      ? {}
      : { outputSchema: Object.freeze(description.output) }),
    [DESCRIBED_MARK]: true as const,
  });
}
