/**
 * OpenAPI operations → tool plans: which operations `include` selects, each
 * one's tool name, description, input schema and effect, and the request
 * recipe (`parameters`, `body`) that `request.ts` follows at call time.
 *
 * Mapping rules (docs/openapi.md):
 * - name: `operationId`, else `<method>_<path>`, with every character
 *   outside `[A-Za-z0-9_-]` turned into `_`, a leading non-letter prefixed
 *   with `op_`, cut to 64 characters; two operations with one name → error.
 * - description: `METHOD /path: summary`, a blank line, the description;
 *   control characters removed, cut to 1,024 UTF-8 bytes.
 * - input: an object whose properties are the path, query and header
 *   parameters by name and `body` (the JSON, text or form request body);
 *   required ones required, nothing else allowed.
 * - effect: `GET`/`HEAD`/`OPTIONS` → `read`, else `write`; `effects` overrides.
 *
 * @module
 */

import { truncateText } from "../text/bounded.ts";
import { replaceControlExceptTabLf } from "../text/control.ts";
import type { OpenApiConfig } from "./config.ts";
import type { HttpMethod, OperationRef } from "./document.ts";
import { jsonPointer, OpenApiError } from "./errors.ts";
import { shorten, toJsonSchema } from "./schema.ts";

type Json = Record<string, unknown>;

/** Where a parameter goes. */
export type ParameterLocation = "path" | "query" | "header";

/** How to put one parameter into the request. */
export interface ParameterPlan {
  /** Its name, also its input property. */
  readonly name: string;
  /** `path`, `query` or `header`. */
  readonly in: ParameterLocation;
  /** `simple`, `form`, `spaceDelimited`, `pipeDelimited`, `deepObject`, … */
  readonly style: string;
  /** Whether arrays and objects are exploded. */
  readonly explode: boolean;
  /** Serialized as JSON text (a parameter with `content: application/json`). */
  readonly json: boolean;
}

/** How to send the request body. */
export interface BodyPlan {
  /** The media type sent as `Content-Type`. */
  readonly mediaType: string;
  /** `json` (JSON text), `text` (a string as is) or `form` (`application/x-www-form-urlencoded`). */
  readonly kind: "json" | "text" | "form";
}

/** One operation as a tool. */
export interface OperationPlan {
  /** The tool name. */
  readonly name: string;
  /** Lower-case method. */
  readonly method: HttpMethod;
  /** Path template, e.g. `/pets/{petId}`. */
  readonly path: string;
  /** JSON pointer of the operation in its document. */
  readonly pointer: string;
  /** `operationId`, if any. */
  readonly operationId?: string;
  /** Model-facing description. */
  readonly description: string;
  /** The tool's input JSON Schema (root `type: "object"`). */
  readonly inputSchema: Json;
  /** `read` or `write`. */
  readonly effect: "read" | "write";
  /** Parameters in the order they are applied. */
  readonly parameters: readonly ParameterPlan[];
  /** The request body, if the operation takes one. */
  readonly body?: BodyPlan;
}

/** Operations `include` selects, and those it named by exact `operationId`. */
export interface Selection {
  /** Selected operations, in document order. */
  readonly operations: readonly OperationRef[];
  /** Pointers of operations named exactly (their mapping problems are errors, not skips). */
  readonly explicit: ReadonlySet<string>;
}

/**
 * The operations of `operations` that `api.include` selects (all when it is
 * absent). An entry matches an operation whose `operationId` equals it, or
 * whose `operationId` or path (leading `/` optional) matches it as a glob
 * (`*` within one path segment, `**` across segments). An entry that matches
 * nothing is an error naming `openapi.<name>.include[i]`.
 *
 * @example
 * ```ts
 * import { selectOperations } from "./operations.ts";
 * const ops = [
 *   { path: "/pets", method: "get", operationId: "listPets", pointer: "#/paths/~1pets/get" },
 *   { path: "/pets/{id}", method: "get", operationId: "getPet", pointer: "#/paths/~1pets~1{id}/get" },
 * ] as const;
 * const api = { name: "pets", configFile: "magi-tools.jsonc", include: ["pets/*"] };
 * console.assert(selectOperations(ops, api).operations.length === 1);
 * ```
 */
export function selectOperations(
  operations: readonly OperationRef[],
  api: Pick<OpenApiConfig, "name" | "configFile" | "include">,
): Selection {
  if (api.include === undefined) return { operations, explicit: new Set() };
  const chosen = new Set<OperationRef>();
  const explicit = new Set<string>();
  api.include.forEach((entry, index) => {
    const glob = entry.includes("*") ? globRegExp(entry.replace(/^\//, "")) : undefined;
    let matched = false;
    for (const op of operations) {
      const exact = op.operationId === entry;
      const byGlob = glob !== undefined &&
        (glob.test(op.path.replace(/^\//, "")) ||
          (op.operationId !== undefined && glob.test(op.operationId)));
      const byPath = glob === undefined && entry.includes("/") &&
        entry.replace(/^\//, "") === op.path.replace(/^\//, "");
      if (exact) explicit.add(op.pointer);
      if (exact || byGlob || byPath) {
        chosen.add(op);
        matched = true;
      }
    }
    if (!matched) {
      throw new OpenApiError(
        api.configFile,
        `openapi.${api.name}.include[${index}]`,
        `"${entry}" matches no operation of the document`,
      );
    }
  });
  return { operations: operations.filter((op) => chosen.has(op)), explicit };
}

function globRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "*" && glob[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (char === "*") source += "[^/]*";
    else source += char.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** An operation this source cannot map (the reason), with where. */
export class UnsupportedOperation extends Error {
  /** JSON pointer of the part at fault. */
  readonly pointer: string;
  /** @param pointer JSON pointer of the part at fault. */
  constructor(pointer: string, reason: string) {
    super(reason);
    this.name = "UnsupportedOperation";
    this.pointer = pointer;
  }
}

/** Headers a parameter may not set (OpenAPI ignores them; auth is the config's). */
const RESERVED_HEADERS = new Set([
  "accept",
  "content-type",
  "authorization",
  "content-length",
  "host",
]);

/**
 * The plan of operation `op` of the resolved document `doc`. Throws
 * {@link UnsupportedOperation} for what cannot be mapped (a required cookie
 * parameter, a required body of an unsupported media type, a parameter that
 * collides with another).
 */
export function planOperation(
  doc: Json,
  op: OperationRef,
  options: { readonly version: "3.0" | "3.1"; readonly authHeader?: string },
): Omit<OperationPlan, "effect"> & { readonly defaultEffect: "read" | "write" } {
  const item = (doc["paths"] as Json)[op.path] as Json;
  const operation = item[op.method] as Json;
  const input: InputParts = { properties: {}, required: [] };
  const parameters: ParameterPlan[] = [];
  for (const { param, at } of declaredParameters(op, item, operation)) {
    const plan = planParameter(param, at, options, input);
    if (plan !== undefined) parameters.push(plan);
  }
  for (const match of op.path.matchAll(/\{([^}]+)\}/g)) {
    if (!parameters.some((p) => p.in === "path" && p.name === match[1])) {
      throw new UnsupportedOperation(op.pointer, `path parameter ${match[1]} is not declared`);
    }
  }
  const body = planBody(op, operation, options, input);

  const inputSchema: Json = {
    type: "object",
    properties: input.properties,
    ...(input.required.length === 0 ? {} : { required: input.required }),
    additionalProperties: false,
  };
  const defaultEffect = op.method === "get" || op.method === "head" || op.method === "options"
    ? "read"
    : "write";
  return {
    name: toolNameOf(op),
    method: op.method,
    path: op.path,
    pointer: op.pointer,
    ...(op.operationId === undefined ? {} : { operationId: op.operationId }),
    description: describe(op, operation),
    inputSchema,
    parameters,
    ...(body === undefined ? {} : { body }),
    defaultEffect,
  };
}

/** What {@link planOperation} is told: the document's OpenAPI version, the config's auth header. */
interface PlanOptions {
  readonly version: "3.0" | "3.1";
  readonly authHeader?: string;
}

/** The tool's input schema as it is built: properties by name, required names in order. */
interface InputParts {
  readonly properties: Json;
  readonly required: string[];
}

/**
 * The parameters that apply to `op`: the path item's, then the operation's, an
 * operation parameter replacing a path-level one of the same `in` and `name`.
 */
function declaredParameters(
  op: OperationRef,
  item: Json,
  operation: Json,
): Iterable<{ param: Json; at: string }> {
  const merged = new Map<string, { param: Json; at: string }>();
  const collect = (list: unknown, base: (string | number)[]) => {
    if (!Array.isArray(list)) return;
    list.forEach((param, index) => {
      if (typeof param !== "object" || param === null) return;
      const p = param as Json;
      merged.set(`${String(p["in"])}:${String(p["name"])}`, {
        param: p,
        at: jsonPointer([...base, "parameters", index]),
      });
    });
  };
  collect(item["parameters"], ["paths", op.path]);
  collect(operation["parameters"], ["paths", op.path, op.method]);
  return merged.values();
}

/**
 * One parameter's plan, its property added to `input`; `undefined` for one the
 * tool leaves out (an optional cookie, a header the request sets itself).
 */
function planParameter(
  param: Json,
  at: string,
  options: PlanOptions,
  input: InputParts,
): ParameterPlan | undefined {
  const name = param["name"];
  const where = param["in"];
  if (typeof name !== "string" || name === "") {
    throw new UnsupportedOperation(at, "a parameter without a name");
  }
  if (where === "cookie") {
    if (param["required"] === true) {
      throw new UnsupportedOperation(at, `required cookie parameter ${name} is not supported`);
    }
    return undefined;
  }
  if (where !== "path" && where !== "query" && where !== "header") {
    throw new UnsupportedOperation(at, `parameter location ${String(where)} is not supported`);
  }
  const lower = name.toLowerCase();
  if (
    where === "header" &&
    (RESERVED_HEADERS.has(lower) || lower === options.authHeader?.toLowerCase())
  ) return undefined;
  if (Object.hasOwn(input.properties, name) || name === "body") {
    throw new UnsupportedOperation(at, `parameter ${name} collides with another input property`);
  }
  let schema = param["schema"];
  let json = false;
  if (schema === undefined && typeof param["content"] === "object" && param["content"] !== null) {
    const [mediaType, media] = Object.entries(param["content"] as Json)[0] ?? [];
    if (mediaType === undefined || !isJson(mediaType)) {
      throw new UnsupportedOperation(at, `parameter ${name} has a non-JSON content type`);
    }
    schema = (media as Json | undefined)?.["schema"];
    json = true;
  }
  const property = toJsonSchema(schema ?? {}, { version: options.version }) as Json;
  if (typeof param["description"] === "string" && property["description"] === undefined) {
    property["description"] = shorten(param["description"], 300);
  }
  input.properties[name] = property;
  if (where === "path" || param["required"] === true) input.required.push(name);
  const style = typeof param["style"] === "string"
    ? param["style"]
    : where === "query"
    ? "form"
    : "simple";
  const explode = typeof param["explode"] === "boolean" ? param["explode"] : style === "form";
  return { name, in: where, style, explode, json };
}

/**
 * The plan of the operation's request body, its `body` property added to
 * `input`; `undefined` when the operation takes none.
 */
function planBody(
  op: OperationRef,
  operation: Json,
  options: PlanOptions,
  input: InputParts,
): BodyPlan | undefined {
  const requestBody = operation["requestBody"] as Json | undefined;
  if (typeof requestBody !== "object" || requestBody === null) return undefined;
  const content = (requestBody["content"] ?? {}) as Json;
  const types = Object.keys(content);
  const mediaType = types.find(isJson) ??
    types.find((t) => t.toLowerCase().startsWith("text/plain")) ??
    types.find((t) => t.toLowerCase() === "application/x-www-form-urlencoded");
  if (mediaType === undefined && types.length > 0) {
    // A tool that cannot send the body would mislead the model, even when it is optional.
    throw new UnsupportedOperation(
      jsonPointer(["paths", op.path, op.method, "requestBody"]),
      `request body media type ${types.join(", ")} is not supported (JSON, text/plain or form)`,
    );
  }
  if (mediaType === undefined) return undefined;
  const kind = isJson(mediaType) ? "json" : mediaType.startsWith("text/") ? "text" : "form";
  const media = content[mediaType] as Json | undefined;
  const schema = kind === "text" ? { type: "string" } : toJsonSchema(media?.["schema"] ?? {}, {
    version: options.version,
    dropReadOnly: true,
  }) as Json;
  if (typeof requestBody["description"] === "string" && schema["description"] === undefined) {
    schema["description"] = shorten(requestBody["description"], 300);
  }
  input.properties["body"] = schema;
  if (requestBody["required"] === true) input.required.push("body");
  return { mediaType, kind };
}

function isJson(mediaType: string): boolean {
  const type = mediaType.split(";", 1)[0]!.trim().toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

/**
 * The tool name of an operation: its `operationId`, else `<method>_<path>`,
 * made to fit `^[A-Za-z][A-Za-z0-9_-]{0,63}$`.
 *
 * @example
 * ```ts
 * import { toolNameOf } from "./operations.ts";
 * console.assert(toolNameOf({ path: "/pets/{id}", method: "get" }) === "get_pets_id");
 * console.assert(toolNameOf({ path: "/", method: "get", operationId: "issues/get" }) === "issues_get");
 * ```
 */
export function toolNameOf(op: Pick<OperationRef, "path" | "method" | "operationId">): string {
  const raw = op.operationId ?? `${op.method}_${op.path}`;
  let name = raw.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/_+/g, "_").replace(/_$/, "");
  if (!/^[A-Za-z]/.test(name)) name = `op_${name.replace(/^_/, "")}`;
  return name.slice(0, 64);
}

function describe(op: OperationRef, operation: Json): string {
  const summary = typeof operation["summary"] === "string" ? operation["summary"].trim() : "";
  const details = typeof operation["description"] === "string"
    ? operation["description"].trim()
    : "";
  const head = `${op.method.toUpperCase()} ${op.path}${summary === "" ? "" : `: ${summary}`}`;
  const text = details === "" || details === summary ? head : `${head}\n\n${details}`;
  const clean = replaceControlExceptTabLf(text.replace(/\r\n?/g, "\n"), " ");
  return truncateText(clean, 1_024);
}
