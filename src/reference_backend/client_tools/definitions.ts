/**
 * Client tool definitions at initialization (`client-tools.md` §1 and §2): validation of
 * `client_tools` and the `client.tools` descriptor of the initialization result.
 *
 * @module
 */

import { canonicalJson, toolIdOf } from "../../protocol/canonical.ts";
import type { JsonObject } from "../../protocol/json.ts";
import { CLIENT_TOOL_MIN_TIMEOUT_MS, CLIENT_TOOLS_LIMITS } from "../../protocol/limits.ts";
import { isBuiltinToolName } from "./builtins.ts";
import { utf8ByteLength } from "../../protocol/utf8.ts";
import { hasC0OrDelExceptTabLf } from "../../text/control.ts";

/** A tool registered for the life of the child. */
export interface RegisteredTool {
  /** Registered name. */
  readonly name: string;
  /** SHA-256 hex of the canonical definition as sent. */
  readonly toolId: string;
  /** `read` runs without approval; `write` needs an allow answer before each call. */
  readonly effect: "read" | "write";
  /** Deadline of one call, ms. */
  readonly timeoutMs: number;
}

const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const FIELDS = new Set(["name", "description", "input_schema", "effect", "timeout_ms"]);

/**
 * Validate a `client_tools` list; null when any definition is invalid (the whole
 * initialization then fails with `invalid_params`).
 */
export function validateClientTools(list: unknown): RegisteredTool[] | null {
  if (!Array.isArray(list) || list.length > CLIENT_TOOLS_LIMITS.tools) return null;
  const names = new Set<string>();
  const tools: RegisteredTool[] = [];
  for (const definition of list) {
    const tool = validateDefinition(definition);
    if (tool === null || names.has(tool.name)) return null;
    names.add(tool.name);
    tools.push(tool);
  }
  return tools;
}

/** The `descriptors["client.tools"]` object for `tools`. */
export function clientToolsDescriptor(tools: readonly RegisteredTool[]): Record<string, unknown> {
  return {
    version: 1,
    tools: tools.map((tool) => ({ name: tool.name, tool_id: tool.toolId })),
    limits: { ...CLIENT_TOOLS_LIMITS },
  };
}

function validateDefinition(value: unknown): RegisteredTool | null {
  if (!isObject(value)) return null;
  for (const key of Object.keys(value)) if (!FIELDS.has(key)) return null;
  const { name, description, input_schema: schema, effect, timeout_ms: timeout } = value;
  if (typeof name !== "string" || !NAME.test(name) || isBuiltinToolName(name)) return null;
  if (!validDescription(description)) return null;
  if (!isObject(schema) || schema.type !== "object") return null;
  if (
    utf8ByteLength(canonicalJson(schema as JsonObject)) >
      CLIENT_TOOLS_LIMITS.schema_bytes
  ) return null;
  if (depthOf(schema) > CLIENT_TOOLS_LIMITS.schema_depth) return null;
  if (effect !== "read" && effect !== "write") return null;
  if (timeout !== undefined) {
    if (!Number.isInteger(timeout)) return null;
    const ms = timeout as number;
    if (ms < CLIENT_TOOL_MIN_TIMEOUT_MS || ms > CLIENT_TOOLS_LIMITS.max_timeout_ms) return null;
  }
  return {
    name,
    toolId: toolIdOf(value as JsonObject),
    effect,
    timeoutMs: typeof timeout === "number" ? timeout : CLIENT_TOOLS_LIMITS.call_timeout_ms,
  };
}

function validDescription(value: unknown): boolean {
  if (typeof value !== "string" || value.length === 0) return false;
  if (utf8ByteLength(value) > CLIENT_TOOLS_LIMITS.description_bytes) return false;
  return !hasC0OrDelExceptTabLf(value);
}

/** Nesting depth in containers (the root object counts 1). */
export function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child));
  return deepest + 1;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
