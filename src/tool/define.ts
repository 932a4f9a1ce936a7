/**
 * `defineTool`: the one way to declare a client tool.
 *
 * A tool module's default export is the result of {@link defineTool}. The
 * spec is validated eagerly, so a bad name, description, effect or timeout
 * fails when the module loads, with a `TypeError` naming the field, not when
 * the model first calls the tool.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { defineTool } from "./define.ts";
 *
 * export default defineTool({
 *   name: "echo",
 *   description: "Return the given text unchanged.",
 *   input: z.object({ text: z.string() }),
 *   effect: "read",
 *   run: ({ text }) => text,
 * });
 * ```
 *
 * @module
 */

import type { z } from "zod";
import { CLIENT_TOOL_MIN_TIMEOUT_MS, CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import { TOOL_NAME_PATTERN } from "../protocol/schemas/client_tools.ts";
import {
  checkAnnotations,
  checkDescription,
  checkPermissions,
  checkResultBounds,
  checkTitle,
  freezePermissions,
  isZodObject,
  show,
  SPEC_KEYS,
} from "./_spec_checks.ts";
import { MIN_MEMORY_MB, type ToolSpec } from "./spec.ts";

// The spec's types (spec.ts) and the bounds its checks apply (_spec_checks.ts) keep their
// names here too: import them from this module.
export {
  annotationsOf,
  MIN_MEMORY_MB,
  MIN_RESULT_BYTES,
  type PermissionGrant,
  type ResultOverflow,
  type ToolAnnotations,
  type ToolContext,
  type ToolEffect,
  type ToolInfo,
  type ToolPermissions,
  type ToolSpec,
} from "./spec.ts";
export {
  checkResultBounds,
  MIN_ENV_PREFIX,
  TITLE_BYTES,
  UNRESTRICTED_ALLOWED,
} from "./_spec_checks.ts";

/**
 * Brand carried by every {@link defineTool} result.
 *
 * @internal
 */
export const TOOL_MARK: unique symbol = Symbol.for("magi-tools.tool") as never;

/** A validated, frozen tool definition. */
export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject>
  extends Readonly<ToolSpec<I, O>> {
  /** Brand: this object came from {@link defineTool}. */
  readonly [TOOL_MARK]: true;
}

/**
 * Validate a tool spec and return it frozen and branded.
 *
 * @throws {TypeError} naming the offending field, e.g.
 * `Tool name must match ^[A-Za-z][A-Za-z0-9_-]{0,63}$: 9bad`.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { defineTool, isTool } from "./define.ts";
 *
 * const tool = defineTool({
 *   name: "add",
 *   description: "Add two numbers.",
 *   input: z.object({ a: z.number(), b: z.number() }),
 *   effect: "read",
 *   run: ({ a, b }) => ({ sum: a + b }),
 * });
 * console.assert(isTool(tool));
 * ```
 */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject = z.ZodObject>(
  spec: ToolSpec<I, O>,
): Tool<I, O> {
  if (typeof spec !== "object" || spec === null) {
    throw new TypeError("Tool spec must be an object");
  }
  const name: unknown = spec.name;
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    throw new TypeError(`Tool name must match ${TOOL_NAME_PATTERN.source}: ${show(name)}`);
  }
  for (const key of Object.keys(spec)) {
    if (!SPEC_KEYS.has(key)) throw new TypeError(`Tool spec has an unknown field: ${name}: ${key}`);
  }
  checkDescription(name, spec.description);
  if (!isZodObject(spec.input)) {
    throw new TypeError(`Tool input must be a zod object schema (z.object): ${name}`);
  }
  if (spec.effect !== "read" && spec.effect !== "write") {
    throw new TypeError(`Tool effect must be "read" or "write": ${name}: ${show(spec.effect)}`);
  }
  if (spec.output !== undefined && !isZodObject(spec.output)) {
    throw new TypeError(`Tool output must be a zod object schema (z.object): ${name}`);
  }
  checkTitle(name, spec.title);
  checkAnnotations(name, spec.annotations, spec.effect);
  const max = CLIENT_TOOLS_LIMITS.max_timeout_ms;
  const timeoutMs: unknown = spec.timeoutMs;
  if (
    timeoutMs !== undefined &&
    (!Number.isInteger(timeoutMs) || (timeoutMs as number) < CLIENT_TOOL_MIN_TIMEOUT_MS ||
      (timeoutMs as number) > max)
  ) {
    throw new TypeError(
      `Tool timeoutMs must be an integer from ${CLIENT_TOOL_MIN_TIMEOUT_MS} to ${max}: ${name}: ${
        show(timeoutMs)
      }`,
    );
  }
  const isolation: unknown = spec.isolation;
  if (isolation !== undefined && isolation !== "process" && isolation !== "inline") {
    throw new TypeError(
      `Tool isolation must be "process" or "inline": ${name}: ${show(isolation)}`,
    );
  }
  if (spec.permissions !== undefined) {
    checkPermissions(name, spec.permissions, isolation === "inline");
  }
  const memoryMb: unknown = spec.memoryMb;
  if (memoryMb !== undefined && (!Number.isInteger(memoryMb) || (memoryMb as number) < 1)) {
    throw new TypeError(`Tool memoryMb must be a positive integer: ${name}: ${show(memoryMb)}`);
  }
  if (memoryMb !== undefined && (memoryMb as number) < MIN_MEMORY_MB) {
    throw new TypeError(
      `Tool memoryMb must be at least ${MIN_MEMORY_MB} (a Deno process alone holds about 40–60 MiB): ${name}: ${memoryMb}`,
    );
  }
  if (memoryMb !== undefined && isolation === "inline") {
    throw new TypeError(`Tool memoryMb needs process isolation, not inline: ${name}`);
  }
  checkResultBounds(name, spec);
  if (typeof spec.run !== "function") throw new TypeError(`Tool run must be a function: ${name}`);

  const tool = { ...spec, [TOOL_MARK]: true as const };
  if (spec.permissions !== undefined) tool.permissions = freezePermissions(spec.permissions);
  if (spec.annotations !== undefined) tool.annotations = Object.freeze({ ...spec.annotations });
  return Object.freeze(tool);
}

/** Whether `value` is a {@link defineTool} result. */
export function isTool(value: unknown): value is Tool {
  return typeof value === "object" && value !== null &&
    (value as Record<PropertyKey, unknown>)[TOOL_MARK] === true;
}
