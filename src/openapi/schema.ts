/**
 * OpenAPI schema objects → JSON Schema for a tool's `input_schema`.
 *
 * OpenAPI 3.1 schemas are JSON Schema 2020-12 already; 3.0 schemas are a
 * dialect: `nullable: true` becomes a `"null"` type, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` become numbers. For both versions
 * documentation-only keywords (`example`, `examples`, `xml`, `externalDocs`,
 * `discriminator`, `x-*`) are dropped, long descriptions are shortened, a
 * request body's `readOnly` properties are removed (the server sets them),
 * and a `$ref` left at a recursion point becomes `{}` (any value) — the
 * schema sent to the model is finite and self-contained.
 *
 * @module
 */

type Json = Record<string, unknown>;

/** Descriptions inside a schema longer than this many characters are shortened. */
export const NESTED_DESCRIPTION_CHARS = 200;

/** Nesting below this depth is replaced by `{}` (the wire bound is 16 containers). */
const MAX_SCHEMA_DEPTH = 12;

const DROPPED = new Set(["example", "examples", "xml", "externalDocs", "discriminator", "$schema"]);
const SCHEMA_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SCHEMA_ONE = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
]);

/** Options of {@link toJsonSchema}. */
export interface ConvertOptions {
  /** The document's `openapi` line. */
  readonly version: "3.0" | "3.1";
  /** Drop `readOnly` properties (request bodies). */
  readonly dropReadOnly?: boolean;
}

/**
 * `schema` (resolved) as a self-contained JSON Schema value.
 *
 * @example
 * ```ts
 * import { toJsonSchema } from "./schema.ts";
 * const out = toJsonSchema({ type: "string", nullable: true, example: "x" }, { version: "3.0" });
 * console.assert(JSON.stringify(out) === '{"type":["string","null"]}');
 * ```
 */
export function toJsonSchema(schema: unknown, options: ConvertOptions): unknown {
  return convert(schema, options, 0, new Set());
}

function convert(
  schema: unknown,
  options: ConvertOptions,
  depth: number,
  path: Set<object>,
): unknown {
  if (typeof schema === "boolean") return schema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return {};
  if (depth >= MAX_SCHEMA_DEPTH || path.has(schema)) return {};
  const input = schema as Json;
  if (typeof input["$ref"] === "string") return {};
  path.add(schema);
  const out: Json = {};
  for (const [key, value] of Object.entries(input)) {
    if (DROPPED.has(key) || key.startsWith("x-")) continue;
    if (options.version === "3.0" && key === "nullable") continue;
    if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null) {
      const map: Json = {};
      for (const [name, sub] of Object.entries(value)) {
        if (key === "properties" && options.dropReadOnly && isReadOnly(sub)) continue;
        map[name] = convert(sub, options, depth + 1, path);
      }
      out[key] = map;
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((sub) => convert(sub, options, depth + 1, path));
    } else if (SCHEMA_ONE.has(key)) {
      out[key] = Array.isArray(value)
        ? value.map((sub) => convert(sub, options, depth + 1, path))
        : convert(value, options, depth + 1, path);
    } else if (key === "description" && typeof value === "string") {
      out[key] = shorten(value, NESTED_DESCRIPTION_CHARS);
    } else out[key] = value;
  }
  path.delete(schema);
  if (options.version === "3.0") dialect30(input, out);
  if (
    options.dropReadOnly && Array.isArray(out["required"]) &&
    typeof input["properties"] === "object"
  ) {
    const props = input["properties"] as Json;
    out["required"] = (out["required"] as unknown[]).filter((name) =>
      typeof name !== "string" || !isReadOnly(props[name])
    );
    if ((out["required"] as unknown[]).length === 0) delete out["required"];
  }
  return out;
}

function dialect30(input: Json, out: Json): void {
  if (input["nullable"] === true) {
    const type = out["type"];
    if (typeof type === "string") out["type"] = [type, "null"];
    if (Array.isArray(out["enum"]) && !out["enum"].includes(null)) {
      out["enum"] = [...out["enum"], null];
    }
  }
  for (const [flag, bound] of [["exclusiveMinimum", "minimum"], ["exclusiveMaximum", "maximum"]]) {
    const value = input[flag!];
    if (typeof value !== "boolean") continue;
    if (value && typeof input[bound!] === "number") {
      out[flag!] = input[bound!];
      delete out[bound!];
    } else delete out[flag!];
  }
}

function isReadOnly(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && (schema as Json)["readOnly"] === true;
}

/** `text` cut to `chars` characters, ending with "…" when cut. */
export function shorten(text: string, chars: number): string {
  const trimmed = text.trim();
  return trimmed.length <= chars ? trimmed : trimmed.slice(0, chars - 1).trimEnd() + "…";
}
