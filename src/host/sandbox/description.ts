/**
 * A tool as plain data: what the describe child reports for each module, and
 * what the host keeps of a process-isolated tool, whose module it never
 * imports (its top-level code runs only in a zero-permission child and in
 * the tool's own process).
 *
 * @module
 */

import { z } from "zod";
import type { PermissionGrant, Tool, ToolEffect, ToolInfo, ToolPermissions } from "../define.ts";

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
  /** `z.toJSONSchema(input, { target: "draft-2020-12", io: "input" })`, or its error message. */
  readonly input: InputSchemaResult;
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

/** The input schema of a zod object schema as JSON Schema, or the conversion error. */
export function inputSchemaOf(input: z.ZodObject): InputSchemaResult {
  try {
    return { schema: { ...z.toJSONSchema(input, { target: "draft-2020-12", io: "input" }) } };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** {@link ToolDescription} of a `defineTool` result (JSON-safe). */
export function describeTool(tool: Tool): ToolDescription {
  return {
    ...sandboxFieldsOf(tool),
    description: tool.description,
    effect: tool.effect,
    ...(tool.timeoutMs === undefined ? {} : { timeoutMs: tool.timeoutMs }),
    input: inputSchemaOf(tool.input),
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
    inputSchema: Object.freeze(description.input),
    [DESCRIBED_MARK]: true as const,
  });
}
