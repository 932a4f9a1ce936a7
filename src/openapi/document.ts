/**
 * Loading an OpenAPI document: read (file or http(s) URL), parse (JSON or
 * YAML), check the version (3.0.x or 3.1.x), keep only the selected
 * operations and what they reference, and resolve every `$ref` with
 * `@apidevtools/json-schema-ref-parser` (internal pointers, files in the
 * document's own directory, URLs of a remote document's own origin:
 * `_ref_reader.ts`). Each failure is an {@link OpenApiError} naming the document, the
 * JSON pointer and the reason.
 *
 * Pruning before resolution keeps the cost proportional to the selected
 * operations: GitHub's 13 MB description with two operations selected
 * resolves only the schemas those two reach. Before `$ref`s are replaced,
 * each operation's expanded size (YAML aliases and `$ref`s counted once per
 * use, `_expansion.ts`) is bounded, so a small document cannot expand
 * exponentially; a local file is read only if it is a regular file.
 *
 * @module
 */

import { $RefParser, CORE_SCHEMA, loadYaml } from "./_deps.ts";
import { jsonPointer, OpenApiError } from "./errors.ts";
import { containedRefOptions, readRegularFile, RefRefused } from "./_ref_reader.ts";
import { ExpansionCounter, MAX_EXPANDED_NODES } from "./_expansion.ts";

/** The HTTP methods an OpenAPI path item can hold, in document order. */
export const HTTP_METHODS: readonly [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** One HTTP method of {@link HTTP_METHODS}. */
export type HttpMethod = typeof HTTP_METHODS[number];

/** Largest document read, bytes. */
export const MAX_DOCUMENT_BYTES = 64 * 1_048_576;

/** How long reading a document from a URL may take, ms. */
export const DOCUMENT_FETCH_TIMEOUT_MS = 30_000;

type Json = Record<string, unknown>;

/** An operation of the document before `$ref` resolution: enough to select it. */
export interface OperationRef {
  /** Path template as written, e.g. `/pets/{petId}`. */
  readonly path: string;
  /** Lower-case method. */
  readonly method: HttpMethod;
  /** `operationId`, if any. */
  readonly operationId?: string;
  /** JSON pointer of the operation object, e.g. `#/paths/~1pets~1{petId}/get`. */
  readonly pointer: string;
}

/** A parsed, version-checked document. */
export interface RawDocument {
  /** Where it was read from (path or URL), for messages and relative `$ref`s. */
  readonly location: string;
  /** `openapi` field: `3.0` or `3.1` (the minor line). */
  readonly version: "3.0" | "3.1";
  /** The parsed document (unresolved). */
  readonly root: Json;
  /** Every operation, in document order. */
  readonly operations: readonly OperationRef[];
}

/** Read and parse `location` (an absolute path or an http(s) URL). */
export async function readDocument(
  location: string,
  display: string = location,
): Promise<RawDocument> {
  // A byte order mark is not part of the document (JSON.parse would refuse it).
  const text = (await readText(location, display)).replace(/^\uFEFF/, "");
  let root: unknown;
  try {
    // The core schema: dates and the like stay strings, as JSON would have them.
    root = /^\s*\{/.test(text) ? JSON.parse(text) : loadYaml(text, { schema: CORE_SCHEMA });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n", 1)[0]! : String(error);
    throw new OpenApiError(display, "#", `does not parse as JSON or YAML: ${reason}`);
  }
  if (typeof root !== "object" || root === null || Array.isArray(root)) {
    throw new OpenApiError(display, "#", "the document is not an object");
  }
  const doc = root as Json;
  const version = doc["openapi"];
  if (typeof version === "number") {
    throw new OpenApiError(
      display,
      "#/openapi",
      `must be a string such as "${version}.0" (quote it in YAML)`,
    );
  }
  if (typeof version !== "string") {
    const what = typeof doc["swagger"] === "string"
      ? `Swagger ${doc["swagger"]} is not supported (convert it to OpenAPI 3)`
      : "missing the openapi version field";
    throw new OpenApiError(display, "#/openapi", what);
  }
  const line = /^3\.([01])\.\d+(?:-.+)?$/.exec(version);
  if (line === null) {
    throw new OpenApiError(
      display,
      "#/openapi",
      `unsupported version ${version} (3.0.x and 3.1.x are supported)`,
    );
  }
  const paths = doc["paths"] ?? {};
  if (typeof paths !== "object" || paths === null || Array.isArray(paths)) {
    throw new OpenApiError(display, "#/paths", "must be an object");
  }
  const operations: OperationRef[] = [];
  for (const [path, value] of Object.entries(paths as Json)) {
    const item = pathItemOf(doc, value, display, ["paths", path]);
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      const pointer = jsonPointer(["paths", path, method]);
      if (typeof op !== "object" || op === null || Array.isArray(op)) {
        throw new OpenApiError(display, pointer, "an operation must be an object");
      }
      const id = (op as Json)["operationId"];
      if (id !== undefined && typeof id !== "string") {
        throw new OpenApiError(display, `${pointer}/operationId`, "must be a string");
      }
      operations.push({ path, method, ...(id === undefined ? {} : { operationId: id }), pointer });
    }
  }
  return { location, version: line[1] === "0" ? "3.0" : "3.1", root: doc, operations };
}

/**
 * The document reduced to `selected` operations (and their path-level
 * parameters and servers), plus everything their internal `$ref`s reach,
 * with every `$ref` resolved. Recursive schemas keep their `$ref` at the
 * point of recursion.
 */
export async function resolveOperations(
  doc: RawDocument,
  selected: readonly OperationRef[],
  display: string = doc.location,
): Promise<Json> {
  const pruned: Json = {};
  for (const key of ["openapi", "info", "servers"]) {
    if (doc.root[key] !== undefined) pruned[key] = doc.root[key];
  }
  const paths: Json = {};
  pruned["paths"] = paths;
  for (const op of selected) {
    const source = pathItemOf(doc.root, (doc.root["paths"] as Json)[op.path], display, [
      "paths",
      op.path,
    ]);
    const item = (paths[op.path] ??= {
      ...(source["parameters"] === undefined ? {} : { parameters: source["parameters"] }),
      ...(source["servers"] === undefined ? {} : { servers: source["servers"] }),
    }) as Json;
    item[op.method] = source[op.method];
  }
  copyReachable(doc.root, pruned, display);
  const options = {
    continueOnError: true,
    dereference: { circular: "ignore" as const },
    // Files in the document's own directory, or URLs of its own origin (`_ref_reader.ts`);
    // each read once, though the parser resolves twice.
    ...containedRefOptions(doc.location, {
      maxBytes: MAX_DOCUMENT_BYTES,
      timeoutMs: DOCUMENT_FETCH_TIMEOUT_MS,
    }),
  };
  try {
    // Read what the $refs reach, then count before anything walks the expansion.
    const $refs = await new $RefParser().resolve(doc.location, pruned, options);
    checkExpansion(pruned, selected, doc.location, display, $refs);
    return await new $RefParser().dereference(doc.location, pruned, options) as Json;
  } catch (error) {
    if (error instanceof OpenApiError) throw error;
    throw refError(error, doc.location, display);
  }
}

/**
 * Refuses an operation whose aliases and `$ref`s expand past {@link MAX_EXPANDED_NODES}
 * (`_expansion.ts`), naming it, before the `$ref` parser walks the expansion.
 */
function checkExpansion(
  pruned: Json,
  selected: readonly OperationRef[],
  location: string,
  display: string,
  $refs: { get(path: string): unknown },
): void {
  const fileOf = (url: URL) =>
    url.protocol === "file:" ? url.pathname : url.href.replace(/#.*$/, "");
  const main = fileOf(new URL(location, "file:///"));
  // The document a file's $refs point into, as read (`$refs.get` would follow $refs on the way).
  const rootOf = (file: string): unknown => {
    if (file === main) return pruned;
    for (const key of [file, decodeURI(file)]) {
      try {
        return $refs.get(key);
      } catch {
        // Not read (refused or missing): resolution reports it.
      }
    }
    return undefined;
  };
  const counter = new ExpansionCounter((ref, base) => {
    const url = URL.parse(ref, /^https?:/i.test(base) ? base : `file://${base}`);
    if (url === null) return undefined;
    const file = fileOf(url);
    const value = lookup(rootOf(file), url.hash === "" ? "#" : url.hash);
    return value === undefined ? undefined : { value, base: file };
  });
  const paths = pruned["paths"] as Json;
  for (const op of selected) {
    const item = paths[op.path] as Json;
    const size = counter.size(item[op.method], main) + counter.size(item["parameters"], main);
    if (size > MAX_EXPANDED_NODES) {
      throw new OpenApiError(
        display,
        op.pointer,
        `the operation is too large: its YAML aliases and $refs expand to more than ` +
          `${MAX_EXPANDED_NODES} nodes`,
      );
    }
  }
}

function refError(error: unknown, location: string, display: string): OpenApiError {
  const errors = (error as { errors?: unknown[] }).errors;
  const first = (Array.isArray(errors) && errors.length > 0 ? errors[0] : error) as {
    message?: string;
    path?: (string | number)[];
    targetRef?: string;
    source?: string;
  };
  const pointer = Array.isArray(first.path) ? jsonPointer([...first.path, "$ref"]) : "#";
  const message = String(first.message ?? error).split("\n", 1)[0]!;
  const more = Array.isArray(errors) && errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  // A refusal is not a failure to resolve: it says which $ref and why.
  const refused = (first as { cause?: unknown }).cause instanceof RefRefused;
  const reason = refused ? message : `unresolved $ref: ${message}`;
  // The pointer is into the file that holds the $ref: name it when it is another one.
  const other = typeof first.source === "string" && first.source !== location &&
      first.source !== decodeURI(location)
    ? ` (in ${first.source})`
    : "";
  return new OpenApiError(display, pointer, `${reason}${other}${more}`, { cause: error });
}

/** The path item at `value`, following one internal `$ref`. */
function pathItemOf(
  root: Json,
  value: unknown,
  display: string,
  at: (string | number)[],
): Json {
  let item = value;
  const ref = (item as Json | null)?.["$ref"];
  if (typeof ref === "string") {
    if (!ref.startsWith("#")) {
      throw new OpenApiError(
        display,
        jsonPointer([...at, "$ref"]),
        "an external path item $ref is not supported",
      );
    }
    item = lookup(root, ref);
    if (item === undefined) {
      throw new OpenApiError(display, jsonPointer([...at, "$ref"]), `unresolved $ref: ${ref}`);
    }
  }
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    throw new OpenApiError(display, jsonPointer(at), "a path item must be an object");
  }
  return item as Json;
}

/** The value at internal pointer `ref` (`#/a/b`) of `root`, or undefined. */
function lookup(root: unknown, ref: string): unknown {
  if (ref === "#" || ref === "#/") return root;
  let current: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof current !== "object" || current === null) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Json)[key];
  }
  return current;
}

/**
 * Copy into `pruned` every value of `root` that an internal `$ref` reachable
 * from `pruned` points at (transitively), at the same pointer. A pointer to
 * nothing is an error at the `$ref` that holds it.
 */
function copyReachable(root: Json, pruned: Json, display: string): void {
  const done = new Set<string>();
  const seen = new WeakSet<object>();
  const queue: { value: unknown; at: (string | number)[] }[] = [{
    value: pruned["paths"],
    at: ["paths"],
  }];
  while (queue.length > 0) {
    const { value, at } = queue.pop()!;
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach((item, index) => queue.push({ value: item, at: [...at, index] }));
      continue;
    }
    const ref = (value as Json)["$ref"];
    if (typeof ref === "string" && ref.startsWith("#") && !done.has(ref)) {
      done.add(ref);
      const target = lookup(root, ref);
      if (target === undefined) {
        throw new OpenApiError(
          display,
          jsonPointer([...at, "$ref"]),
          `unresolved $ref: ${ref} does not exist in the document`,
        );
      }
      place(pruned, ref, target);
      queue.push({ value: target, at: pointerSegments(ref) });
    }
    for (const [key, child] of Object.entries(value)) {
      if (key !== "$ref") queue.push({ value: child, at: [...at, key] });
    }
  }
}

function pointerSegments(ref: string): string[] {
  if (ref === "#" || ref === "#/") return [];
  return ref.slice(2).split("/").map((raw) =>
    decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~")
  );
}

function place(pruned: Json, ref: string, target: unknown): void {
  const segments = pointerSegments(ref);
  if (segments.length === 0) return;
  let current = pruned;
  for (const key of segments.slice(0, -1)) {
    const next = current[key];
    if (typeof next !== "object" || next === null) current[key] = {};
    current = current[key] as Json;
  }
  current[segments.at(-1)!] = target;
}

async function readText(location: string, display: string): Promise<string> {
  if (/^https?:\/\//i.test(location)) {
    let response: Response;
    try {
      response = await fetch(location, {
        signal: AbortSignal.timeout(DOCUMENT_FETCH_TIMEOUT_MS),
        headers: { accept: "application/json, application/yaml, text/yaml, */*" },
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new OpenApiError(display, "", `cannot be fetched: ${reason}`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new OpenApiError(display, "", `cannot be fetched: HTTP ${response.status}`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > MAX_DOCUMENT_BYTES) {
      throw new OpenApiError(display, "", `is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    }
    return new TextDecoder().decode(bytes);
  }
  let bytes: Uint8Array;
  try {
    // A regular file only (not a FIFO that blocks a read forever), at most the largest size.
    bytes = await readRegularFile(location, location, MAX_DOCUMENT_BYTES);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new OpenApiError(display, "", `cannot be read: ${reason}`);
  }
  return new TextDecoder().decode(bytes);
}
