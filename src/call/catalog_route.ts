/**
 * The executor of a registration with a catalog (`catalog.ts`): answers `tool_search` itself,
 * unwraps `tool_call`/`tool_call_write` into a call of the chosen tool and hands it to the
 * same {@link CallExecutor} as a direct call (validation, sandbox, deadline, result bounds);
 * refuses any tool that is neither registered nor reached through a dispatcher.
 *
 * @module
 */

import { utf8ByteLength } from "../protocol/utf8.ts";
import {
  CALL_TOOL,
  CALL_WRITE_TOOL,
  CatalogIndex,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  SEARCH_TOOL,
  searchAnswer,
} from "../toolset/catalog.ts";
import type { CallExecutor, ToolCallRequest, ToolCallResult } from "../tool/call.ts";
import type { ToolRegistry } from "../toolset/registry.ts";
import { truncateText } from "../text/bounded.ts";

/** The real tool a call runs, for the summary records. */
export interface CallRoute {
  /** The tool's name. */
  readonly name: string;
  /** The tool's `tool_id` (as a direct registration would have it). */
  readonly toolId: string;
  /** The registered tool the backend called: `tool_call` or `tool_call_write`. */
  readonly via: string;
}

/** A {@link CallExecutor} over a registry whose registration has a catalog. */
export class CatalogExecutor implements CallExecutor {
  readonly #inner: CallExecutor;
  readonly #registry: ToolRegistry;
  readonly #index: CatalogIndex;
  readonly #direct: ReadonlySet<string>;

  /** Route `registry`'s calls to `inner`. */
  constructor(registry: ToolRegistry, inner: CallExecutor) {
    this.#inner = inner;
    this.#registry = registry;
    this.#index = new CatalogIndex(registry.tools);
    this.#direct = new Set(
      registry.registered.filter((wire) => wire.file !== "catalog").map((wire) => wire.name),
    );
  }

  /**
   * The real tool of a dispatcher call whose arguments name a tool of the catalog, or null
   * (any other call, or arguments that name none: the records keep the registered name).
   */
  route(name: string, args: unknown): CallRoute | null {
    if (name !== CALL_TOOL && name !== CALL_WRITE_TOOL) return null;
    const target = (args as { name?: unknown } | null)?.name;
    if (typeof target !== "string") return null;
    const entry = this.#registry.get(target);
    return entry === undefined ? null : { name: target, toolId: entry.toolId, via: name };
  }

  /** Run one call; never rejects. */
  execute(call: ToolCallRequest, signal: AbortSignal): Promise<ToolCallResult> {
    const wire = this.#registry.registered.find((entry) => entry.name === call.name);
    if (wire === undefined || wire.toolId !== call.toolId) {
      const why = wire === undefined ? "" : " (tool_id does not match the registered definition)";
      return done("unknown_tool", `Unknown tool: ${truncateText(call.name, 64)}${why}`);
    }
    if (call.name === SEARCH_TOOL) return this.#search(call.arguments);
    if (call.name !== CALL_TOOL && call.name !== CALL_WRITE_TOOL) {
      return this.#inner.execute(call, signal);
    }
    const args = call.arguments as Record<string, unknown> | null;
    const keys = typeof args === "object" && args !== null ? Object.keys(args) : [];
    const extra = keys.find((key) => key !== "name" && key !== "arguments");
    const target = args?.["name"];
    const inner = args?.["arguments"] ?? {};
    if (typeof target !== "string" || extra !== undefined) {
      return invalid(
        extra === undefined ? "name: expected a tool name" : `${extra}: unknown field`,
      );
    }
    if (typeof inner !== "object" || inner === null || Array.isArray(inner)) {
      return invalid("arguments: expected an object");
    }
    const entry = this.#registry.get(target);
    if (entry === undefined) {
      return done(
        "unknown_tool",
        `Unknown tool: ${truncateText(target, 64)}; find tools with ${SEARCH_TOOL}`,
      );
    }
    if (entry.definition.effect === "write" && call.name === CALL_TOOL) {
      // tool_call runs without approval: a write tool must go through tool_call_write.
      return invalid(`${target} is a write tool: call it with ${CALL_WRITE_TOOL}`);
    }
    return this.#inner.execute(
      { ...call, name: target, toolId: entry.toolId, arguments: inner },
      signal,
    );
  }

  #search(args: unknown): Promise<ToolCallResult> {
    const object = typeof args === "object" && args !== null && !Array.isArray(args)
      ? args as Record<string, unknown>
      : null;
    const query = object?.["query"];
    const limit = object?.["limit"] ?? SEARCH_DEFAULT_LIMIT;
    const extra = object === null
      ? undefined
      : Object.keys(object).find((key) => key !== "query" && key !== "limit");
    if (extra !== undefined) return invalid(`${extra}: unknown field`);
    if (typeof query !== "string" || query.trim() === "" || utf8ByteLength(query) > 256) {
      return invalid("query: expected 1 to 256 bytes of text");
    }
    if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > SEARCH_MAX_LIMIT) {
      return invalid(`limit: expected an integer from 1 to ${SEARCH_MAX_LIMIT}`);
    }
    const text = searchAnswer(this.#index.search(query, limit as number), this.#direct);
    return Promise.resolve(result("success", undefined, text));
  }
}

function invalid(reason: string): Promise<ToolCallResult> {
  return done("invalid_arguments", `Invalid arguments: ${reason}`);
}

function done(errorCode: string, text: string): Promise<ToolCallResult> {
  return Promise.resolve(result("error", errorCode, text));
}

function result(
  outcome: "success" | "error",
  errorCode: string | undefined,
  text: string,
): ToolCallResult {
  return {
    outcome,
    ...(errorCode === undefined ? {} : { errorCode }),
    text,
    parts: [text],
    bytes: utf8ByteLength(text),
    durationMs: 0,
    abandoned: false,
    killed: false,
  };
}
