/**
 * The checks behind `defineTool` (`define.ts`): a tool spec's description,
 * title, annotations, permissions and result bounds, each throwing a
 * `TypeError` that names the tool and the field, and the bounds they apply.
 *
 * @module
 */

import { z } from "zod";
import { CLIENT_TOOLS_LIMITS, MIN_RESULT_BYTES } from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import type { PermissionGrant, ToolAnnotations, ToolEffect, ToolPermissions } from "./spec.ts";
import { hasControlExceptTabLf } from "../text/control.ts";
/** The fields a tool spec may have. */
export const SPEC_KEYS: ReadonlySet<string> = new Set([
  "name",
  "title",
  "description",
  "input",
  "output",
  "effect",
  "annotations",
  "timeoutMs",
  "permissions",
  "isolation",
  "memoryMb",
  "maxResultBytes",
  "overflow",
  "run",
]);
const PERMISSION_KEYS = new Set(["read", "write", "net", "env", "run", "sys", "ffi"]);
const ANNOTATION_KEYS = new Set([
  "readOnlyHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
]);
/** Bound on a tool's `title`, UTF-8 bytes. */
export const TITLE_BYTES = 128;
/**
 * Kinds a process-isolated tool may grant wholesale with `true`. Every other
 * kind needs a list: `read: true` would expose every secret on disk,
 * `run: true` any program (which runs unsandboxed), `env: true` every secret
 * in the environment, `ffi: true` native code. `net: true` serves tools that
 * fetch model-given URLs; `sys: true` exposes only system information.
 */
export const UNRESTRICTED_ALLOWED: ReadonlySet<string> = new Set(["net", "sys"]);
/** The shortest prefix before `*` a process-isolated tool's `env` entry may have. */
export const MIN_ENV_PREFIX = 3;

export function checkDescription(name: string, description: unknown): void {
  const limit = CLIENT_TOOLS_LIMITS.description_bytes;
  if (typeof description !== "string") {
    throw new TypeError(`Tool description must be a string: ${name}`);
  }
  const bytes = utf8ByteLength(description);
  if (bytes < 1 || bytes > limit) {
    throw new TypeError(`Tool description must be 1 to ${limit} UTF-8 bytes: ${name}: ${bytes}`);
  }
  if (!description.isWellFormed()) {
    throw new TypeError(`Tool description must be well-formed Unicode: ${name}`);
  }
  if (hasControlExceptTabLf(description)) {
    throw new TypeError(
      `Tool description must not contain control characters other than LF and TAB: ${name}`,
    );
  }
}

/** Check `maxResultBytes` and `overflow` (shared with the config's API and server entries). */
export function checkResultBounds(
  name: string,
  spec: {
    readonly maxResultBytes?: unknown;
    readonly overflow?: unknown;
    readonly output?: unknown;
  },
): void {
  const max = CLIENT_TOOLS_LIMITS.result_bytes;
  const bytes = spec.maxResultBytes;
  if (
    bytes !== undefined &&
    (!Number.isInteger(bytes) || (bytes as number) < MIN_RESULT_BYTES || (bytes as number) > max)
  ) {
    throw new TypeError(
      `Tool maxResultBytes must be an integer from ${MIN_RESULT_BYTES} to ${max}: ${name}: ${
        show(bytes)
      }`,
    );
  }
  const overflow = spec.overflow;
  if (
    overflow !== undefined && overflow !== "error" && overflow !== "truncate" &&
    overflow !== "spill"
  ) {
    throw new TypeError(
      `Tool overflow must be "error", "truncate" or "spill": ${name}: ${show(overflow)}`,
    );
  }
  if (spec.output !== undefined && overflow !== undefined && overflow !== "error") {
    throw new TypeError(
      `Tool overflow must be "error" for a tool with an output schema (a cut result would not match it): ${name}`,
    );
  }
}

export function checkTitle(name: string, title: unknown): void {
  if (title === undefined) return;
  if (typeof title !== "string") throw new TypeError(`Tool title must be a string: ${name}`);
  const bytes = utf8ByteLength(title);
  const control = hasControlExceptTabLf(title) || title.includes("\n") || title.includes("\t");
  if (bytes < 1 || bytes > TITLE_BYTES || !title.isWellFormed() || control) {
    throw new TypeError(
      `Tool title must be 1 to ${TITLE_BYTES} UTF-8 bytes of one line, no control characters: ${name}`,
    );
  }
}

export function checkAnnotations(name: string, annotations: unknown, effect: ToolEffect): void {
  if (annotations === undefined) return;
  if (typeof annotations !== "object" || annotations === null || Array.isArray(annotations)) {
    throw new TypeError(`Tool annotations must be an object: ${name}`);
  }
  for (const [key, value] of Object.entries(annotations)) {
    if (!ANNOTATION_KEYS.has(key)) {
      throw new TypeError(`Tool annotations has an unknown field: ${name}: ${key}`);
    }
    if (typeof value !== "boolean") {
      throw new TypeError(`Tool annotations.${key} must be a boolean: ${name}: ${show(value)}`);
    }
  }
  const readOnly = (annotations as ToolAnnotations).readOnlyHint;
  if (readOnly !== undefined && readOnly !== (effect === "read")) {
    throw new TypeError(
      `Tool annotations.readOnlyHint must agree with effect (${effect}): ${name}: ${readOnly}`,
    );
  }
}

export function checkPermissions(name: string, permissions: unknown, inline: boolean): void {
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
    throw new TypeError(`Tool permissions must be an object: ${name}`);
  }
  for (const [key, grant] of Object.entries(permissions)) {
    if (!PERMISSION_KEYS.has(key)) {
      throw new TypeError(`Tool permissions has an unknown field: ${name}: ${key}`);
    }
    const ok = typeof grant === "boolean" ||
      (Array.isArray(grant) && grant.every((entry) => typeof entry === "string" && entry !== ""));
    if (!ok) {
      throw new TypeError(
        `Tool permissions.${key} must be a boolean or a list of non-empty strings: ${name}`,
      );
    }
    if (Array.isArray(grant) && grant.some((entry: string) => entry.includes(","))) {
      throw new TypeError(
        `Tool permissions.${key} entries must not contain a comma: ${name}`,
      );
    }
    if (key === "env" && Array.isArray(grant) && !inline) {
      // A prefix (`NAME_*`) too short is `env: true` by another name: every secret.
      const wide = grant.find((entry: string) => {
        const star = entry.indexOf("*");
        return star !== -1 && (star !== entry.length - 1 || star < MIN_ENV_PREFIX);
      });
      if (wide !== undefined) {
        throw new TypeError(
          `Tool permissions.env entry ${
            JSON.stringify(wide)
          } of a process-isolated tool is too wide (it would match every secret in the environment): name the variables, or a prefix of at least ${MIN_ENV_PREFIX} characters ending in * (e.g. "MYAPP_*"): ${name}`,
        );
      }
    }
    if (grant === true && !inline && !UNRESTRICTED_ALLOWED.has(key)) {
      throw new TypeError(
        `Tool permissions.${key} must list what it allows; true is accepted only for net and sys of a process-isolated tool: ${name}`,
      );
    }
  }
}

export function freezePermissions(permissions: ToolPermissions): ToolPermissions {
  const copy: Record<string, PermissionGrant> = {};
  for (const [key, grant] of Object.entries(permissions)) {
    if (grant !== undefined) copy[key] = Array.isArray(grant) ? Object.freeze([...grant]) : grant;
  }
  return Object.freeze(copy);
}

export function isZodObject(value: unknown): value is z.ZodObject {
  if (value instanceof z.ZodObject) return true;
  // A tool module may import its own copy of zod 4: accept any zod 4 object schema.
  const internals = (value as { _zod?: { def?: { type?: unknown } } } | null)?._zod;
  return typeof value === "object" && value !== null && internals?.def?.type === "object";
}

export function show(value: unknown): string {
  if (value === "") return '""';
  if (typeof value === "string") return value.length > 80 ? `${value.slice(0, 80)}…` : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  return typeof value;
}
