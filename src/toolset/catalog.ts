/**
 * The tool catalog behind the `client.tools` registration: when a host has more tools than
 * the protocol registers (32), the first tools in load order are registered directly and the
 * rest are reached through three small tools the host answers itself:
 *
 * - `tool_search` (`read`): ranks the catalog by name, description and input-schema terms and
 *   answers with the best matches' names, descriptions, effects and input schemas, at most
 *   {@link SEARCH_ANSWER_BYTES} UTF-8 bytes;
 * - `tool_call` (`read`): runs one read tool of the catalog, `{"name", "arguments"}`;
 * - `tool_call_write` (`write`, so the backend asks for approval before each call, as it
 *   would for the tool itself): runs one write tool of the catalog.
 *
 * `tool_call` refuses a write tool (`invalid_arguments`, naming `tool_call_write`), so a
 * write tool is never run without the approval a direct call would have needed. The chosen
 * tool runs through the same executor (validation, sandbox, deadline, bounds) as a direct call;
 * the summary records name the real tool (`src/call/catalog_route.ts`).
 *
 * @module
 */

import { toolIdOf } from "../protocol/canonical.ts";
import type { JsonObject } from "../protocol/json.ts";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import type { ClientToolDefinition } from "../protocol/schemas/client_tools.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { CATALOG_TOOL_NAMES } from "../summary/constants.ts";
import { truncateText } from "../text/bounded.ts";

/** The search tool's name. */
export const SEARCH_TOOL = "tool_search";
/** The dispatcher of read tools. */
export const CALL_TOOL = "tool_call";
/** The dispatcher of write tools (approval before each call). */
export const CALL_WRITE_TOOL = "tool_call_write";
/** Names the catalog's own tools take; no tool may use them when the catalog is in use. */
export { CATALOG_TOOL_NAMES };

/** Most tools a host loads (every front door); the registration registers at most 32 of them. */
export const MAX_TOOLS = 1_000;
/** Bound on one `tool_search` answer, UTF-8 bytes (one result part). */
export const SEARCH_ANSWER_BYTES = 12_288;
/** Matches a `tool_search` answer lists by default. */
export const SEARCH_DEFAULT_LIMIT = 5;
/** Most matches one `tool_search` answer lists. */
export const SEARCH_MAX_LIMIT = 10;
/** Bound on one tool's description in a search answer, UTF-8 bytes. */
const SEARCH_DESCRIPTION_BYTES = 512;

/** What the catalog needs of a tool. */
export interface CatalogEntry {
  /** The tool's wire definition (as a direct registration would send it). */
  readonly definition: ClientToolDefinition;
}

/** What the registration needs of a registered tool (`registry.ts`'s `RegisteredTool`). */
export interface RegisteredEntry extends CatalogEntry {
  /** The tool (its name). */
  readonly tool: { readonly name: string };
  /** SHA-256 hex of the definition's canonical JSON. */
  readonly toolId: string;
  /** Serialized bytes of the definition. */
  readonly definitionBytes: number;
  /** Module file or `<kind>:<name>`. */
  readonly file: string;
}

/** One definition of the registration: a real tool's, or one of the catalog's own. */
export interface WireTool {
  /** Tool name. */
  readonly name: string;
  /** Exactly what is sent in `client_tools`. */
  readonly definition: ClientToolDefinition;
  /** SHA-256 hex of the definition's canonical JSON. */
  readonly toolId: string;
  /** Serialized (compact JSON) bytes of `definition`. */
  readonly definitionBytes: number;
  /** Module file or `<kind>:<name>`; `catalog` for the catalog's own tools. */
  readonly file: string;
}

/** The wire form of a registered tool. */
export function wireOf(entry: RegisteredEntry): WireTool {
  return Object.freeze({
    name: entry.tool.name,
    definition: entry.definition,
    toolId: entry.toolId,
    definitionBytes: entry.definitionBytes,
    file: entry.file,
  });
}

/**
 * More than 32 tools: the first tools in load order (at most 32 less the catalog's three) that
 * fit the `initialize` frame together with the catalog's tools, then those.
 */
export function catalogRegistration(
  tools: readonly RegisteredEntry[],
  fits: (registered: readonly WireTool[]) => boolean,
): WireTool[] {
  let direct = Math.min(tools.length, CLIENT_TOOLS_LIMITS.tools - CATALOG_TOOL_NAMES.length);
  for (;;) {
    const registered = [
      ...tools.slice(0, direct).map(wireOf),
      ...catalogTools(tools.slice(direct), tools.length),
    ];
    if (direct === 0 || fits(registered)) return registered;
    direct--;
  }
}

/** The catalog's own tools for `hidden` (the tools not registered directly). */
export function catalogTools(hidden: readonly CatalogEntry[], total: number): WireTool[] {
  const reads = hidden.filter((entry) => entry.definition.effect === "read");
  const writes = hidden.filter((entry) => entry.definition.effect === "write");
  const definitions: ClientToolDefinition[] = [{
    name: SEARCH_TOOL,
    description:
      `Find a tool among ${total} tools, ${hidden.length} of them not listed directly. ` +
      "Give a few words of what you need; the answer lists the best matches with name, " +
      `description, effect and input schema. Run a read tool with ${CALL_TOOL}` +
      (writes.length > 0 ? `, a write tool with ${CALL_WRITE_TOOL}.` : "."),
    input_schema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 256 },
        limit: { type: "integer", minimum: 1, maximum: SEARCH_MAX_LIMIT },
      },
      required: ["query"],
      additionalProperties: false,
    },
    effect: "read",
  }];
  if (reads.length > 0) definitions.push(dispatcher(CALL_TOOL, "read", reads));
  if (writes.length > 0) definitions.push(dispatcher(CALL_WRITE_TOOL, "write", writes));
  return definitions.map((definition) => {
    const frozen = Object.freeze(definition);
    return Object.freeze({
      name: definition.name,
      definition: frozen,
      toolId: toolIdOf(frozen as JsonObject),
      definitionBytes: utf8ByteLength(JSON.stringify(frozen)),
      file: "catalog",
    });
  });
}

function dispatcher(
  name: string,
  effect: "read" | "write",
  tools: readonly CatalogEntry[],
): ClientToolDefinition {
  const which = effect === "read" ? "a read tool" : "a write tool (asks for approval first)";
  const definition: ClientToolDefinition = {
    name,
    description: `Run ${which} found with ${SEARCH_TOOL}: name is the tool's name, ` +
      "arguments the object its input schema describes.",
    input_schema: {
      type: "object",
      properties: {
        name: { type: "string", pattern: "^[A-Za-z][A-Za-z0-9_-]{0,63}$" },
        arguments: { type: "object" },
      },
      required: ["name", "arguments"],
      additionalProperties: false,
    },
    effect,
  };
  // The backend's deadline is per registered tool: give the dispatcher the longest a tool
  // behind it declares (each tool's own timeoutMs still applies in the executor).
  const longest = Math.max(0, ...tools.map((entry) => entry.definition.timeout_ms ?? 0));
  if (longest > 0) {
    definition.timeout_ms = Math.max(longest, CLIENT_TOOLS_LIMITS.call_timeout_ms);
  }
  return definition;
}

/** Lower-case terms of `text`: words split at non-alphanumerics and camelCase humps. */
export function termsOf(text: string): string[] {
  return text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^\p{L}\p{N}]+/u)
    .filter((term) => term !== "");
}

/** Schema words of a definition: property names, titles, descriptions and enum strings. */
function schemaTerms(value: unknown, out: string[], depth = 0): void {
  if (depth > 16 || typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) schemaTerms(item, out, depth + 1);
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key === "properties" && typeof inner === "object" && inner !== null) {
      for (const property of Object.keys(inner)) out.push(...termsOf(property));
    }
    if ((key === "description" || key === "title") && typeof inner === "string") {
      out.push(...termsOf(inner));
    } else if (key === "enum" && Array.isArray(inner)) {
      for (const item of inner) if (typeof item === "string") out.push(...termsOf(item));
    }
    schemaTerms(inner, out, depth + 1);
  }
}

/** Search index: each entry's terms by field, built once. */
export class CatalogIndex {
  readonly #entries: readonly {
    readonly definition: ClientToolDefinition;
    readonly name: readonly string[];
    readonly description: ReadonlySet<string>;
    readonly schema: ReadonlySet<string>;
  }[];

  /** Index `entries` (the whole catalog, in load order). */
  constructor(entries: readonly CatalogEntry[]) {
    this.#entries = entries.map(({ definition }) => {
      const schema: string[] = [];
      schemaTerms(definition.input_schema, schema);
      return {
        definition,
        name: termsOf(definition.name),
        description: new Set(termsOf(definition.description)),
        schema: new Set(schema),
      };
    });
  }

  /**
   * The best `limit` matches of `query`, best first (ties in load order): a query term equal
   * to the whole name scores 20, to a word of the name 6, a prefix of one 3; a description
   * word 2; a schema word 1. Tools scoring 0 are left out.
   */
  search(query: string, limit: number): ClientToolDefinition[] {
    const terms = [...new Set(termsOf(query))];
    const whole = query.trim().toLowerCase();
    const scored = this.#entries.map((entry, index) => {
      let score = entry.definition.name.toLowerCase() === whole ? 20 : 0;
      for (const term of terms) {
        if (entry.name.includes(term)) score += 6;
        else if (term.length >= 3 && entry.name.some((word) => word.startsWith(term))) score += 3;
        if (entry.description.has(term)) score += 2;
        if (entry.schema.has(term)) score += 1;
      }
      return { entry, index, score };
    }).filter((item) => item.score > 0);
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    return scored.slice(0, limit).map((item) => item.entry.definition);
  }
}

/**
 * The text of a `tool_search` answer: JSON `{"tools":[…], "more"?: …}` with each match's
 * name, effect, how to call it, description (cut at 512 bytes) and input schema, best first,
 * at most {@link SEARCH_ANSWER_BYTES} bytes: a match whose schema does not fit is listed
 * without it (`input_schema_omitted`; a search for its exact name alone brings it), and
 * matches past the bound are only counted (`more`).
 */
export function searchAnswer(
  matches: readonly ClientToolDefinition[],
  direct: ReadonlySet<string>,
): string {
  const tools: Record<string, unknown>[] = [];
  let bytes = utf8ByteLength('{"tools":[],"more":999}');
  let more = 0;
  for (const definition of matches) {
    const callWith = direct.has(definition.name)
      ? "directly"
      : definition.effect === "write"
      ? CALL_WRITE_TOOL
      : CALL_TOOL;
    const head = {
      name: definition.name,
      effect: definition.effect,
      call_with: callWith,
      description: truncateText(definition.description, SEARCH_DESCRIPTION_BYTES),
    };
    const full = { ...head, input_schema: definition.input_schema };
    const fullBytes = utf8ByteLength(JSON.stringify(full)) + 1;
    if (bytes + fullBytes <= SEARCH_ANSWER_BYTES) {
      tools.push(full);
      bytes += fullBytes;
      continue;
    }
    const short = { ...head, input_schema_omitted: true };
    const shortBytes = utf8ByteLength(JSON.stringify(short)) + 1;
    if (bytes + shortBytes <= SEARCH_ANSWER_BYTES) {
      tools.push(short);
      bytes += shortBytes;
    } else {
      more++;
    }
  }
  return JSON.stringify(more > 0 ? { tools, more } : { tools });
}
