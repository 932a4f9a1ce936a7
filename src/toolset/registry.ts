/**
 * The tool registry: loaded tools turned into wire definitions, checked
 * against every bound of `client-tools.md` before anything is sent.
 *
 * Each tool's zod input schema becomes JSON Schema (draft 2020-12, input
 * side). A schema that cannot be converted, a root that is not an object, a
 * bound exceeded or the whole `initialize` request not fitting in one input
 * frame fails with a {@link RegistryError} naming the tool and its file: a
 * tool is never dropped. After initialization, {@link ToolRegistry.verifyDescriptor}
 * recomputes every `tool_id` and fails closed on any difference. A definition's
 * checks are in `definitions.ts`, the measure of the `initialize` request in
 * `budget.ts`.
 *
 * @module
 */

import { toolIdOf } from "../protocol/canonical.ts";
import type { JsonObject } from "../protocol/json.ts";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import type { ClientToolDefinition } from "../protocol/schemas/client_tools.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { annotationsOf, isTool, type Tool, type ToolAnnotations } from "../tool/define.ts";
import type { LoadedTool } from "./discovery.ts";
import { type ExternalTool, isExternalTool } from "../tool/external.ts";
import type { AnyTool, InputSchemaResult } from "../sandbox/description.ts";
import { RESERVED_TOOL_NAMES } from "../tool/reserved_names.ts";
import { supportsProcessIsolation } from "../runtime/mod.ts";
import {
  CATALOG_TOOL_NAMES,
  catalogRegistration,
  MAX_TOOLS,
  wireOf,
  type WireTool,
} from "./catalog.ts";
import { checkCapabilities, type FrameBudget, measure, overBudgetMessage } from "./budget.ts";
import { definitionOf, fixFor, outputSchemaFor, where } from "./definitions.ts";
import { RegistryError } from "./registry_error.ts";

export { MAX_TOOLS, type WireTool } from "./catalog.ts";

/**
 * Where a registered tool comes from: a tool module (`name` is its file as
 * found) or an external source (`name` is its config key, e.g. `fs` of
 * `mcpServers.fs`).
 */
export interface ToolSourceInfo {
  /** `module`, `mcp` or `openapi`. */
  readonly kind: "module" | "mcp" | "openapi";
  /** The module's file, or the source's config key. */
  readonly name: string;
}

/**
 * How a registered tool runs, chosen once when it is registered: `inline` in the host process
 * (a `defineTool` result with `isolation: "inline"`, or any where the runtime has no process
 * sandbox: Node.js), `process` in its own sandboxed process (the rest, also a tool known only
 * by its description), `external` in its source (MCP, OpenAPI; the host sends the request).
 */
export type ToolKind = "inline" | "process" | "external";

/** One registered tool: the tool, how it runs, its wire definition and identity. */
export type RegisteredTool =
  | RegisteredToolOf<"inline", Tool>
  | RegisteredToolOf<"process", AnyTool>
  | RegisteredToolOf<"external", ExternalTool>;

/** A registered tool of one {@link ToolKind}. */
export interface RegisteredToolOf<K extends ToolKind, T extends AnyTool | ExternalTool> {
  /** How it runs (see {@link ToolKind}); read this instead of asking the tool. */
  readonly kind: K;
  /**
   * The `defineTool` result, or for a process-isolated tool under Deno its
   * description only (the module is never imported in the host), or an
   * {@link ExternalTool} (MCP, OpenAPI).
   */
  readonly tool: T;
  /** Module it came from; for an external tool `<kind>:<name>`, e.g. `mcp:fs`. */
  readonly file: string;
  /** Where it comes from, as `host.ready` and `tools` show it. */
  readonly source: ToolSourceInfo;
  /** Exactly what is sent in `client_tools`. */
  readonly definition: ClientToolDefinition;
  /** SHA-256 hex of the definition's canonical JSON. */
  readonly toolId: string;
  /** Serialized (compact JSON) bytes of `definition`. */
  readonly definitionBytes: number;
  /** The tool's `title`, if it declares one (not part of the `client.tools` definition). */
  readonly title?: string;
  /** The full MCP annotation set: the author's, the rest derived from `effect`. */
  readonly annotations: Readonly<Required<ToolAnnotations>>;
  /** The `output` schema as JSON Schema (draft 2020-12, output side), if the tool declares one. */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
}

export type { FrameBudget } from "./budget.ts";
export { RegistryError } from "./registry_error.ts";

/** Options of {@link ToolRegistry.fromLoaded}. */
export interface RegistryOptions {
  /**
   * The exact `required_capabilities` the `initialize` request will carry
   * (must include `client.tools`). Used to measure the request. Default: the
   * worst case, 18 names of 64 bytes, so the check stays conservative.
   */
  readonly requiredCapabilities?: readonly string[];
  /**
   * Tools of external sources (MCP servers, OpenAPI documents), registered
   * after the modules and checked against the same bounds. A bound they
   * break fails with the tool, its source, the bound and the fix.
   */
  readonly external?: readonly ExternalTool[];
  /**
   * Names the backend reserves for its built-in tools; default
   * {@link RESERVED_TOOL_NAMES} (`magi-code`'s). A tool with one of them is
   * rejected here instead of failing the backend's `initialize`.
   */
  readonly reservedNames?: readonly string[];
}

/**
 * The host's tools, in load order, and what `initialize` registers of them. Immutable.
 *
 * Up to 32 tools (`client-tools.md`'s `tools` bound) are all registered directly. Past that
 * (at most {@link MAX_TOOLS}) the registration is the first tools in load order that fit,
 * plus the catalog's own `tool_search`, `tool_call` and `tool_call_write` (`catalog.ts`).
 */
export class ToolRegistry {
  /** Every tool, in load order (the catalog). */
  readonly tools: readonly RegisteredTool[];
  /** What `initialize` sends, in order: every tool, or the first ones plus the catalog's. */
  readonly registered: readonly WireTool[];
  readonly #byName: ReadonlyMap<string, RegisteredTool>;
  readonly #capabilities: readonly string[];

  private constructor(
    tools: readonly RegisteredTool[],
    capabilities: readonly string[],
    registered?: readonly WireTool[],
  ) {
    this.tools = Object.freeze([...tools]);
    this.registered = Object.freeze([...(registered ?? tools.map(wireOf))]);
    this.#byName = new Map(tools.map((entry) => [entry.tool.name, entry]));
    this.#capabilities = capabilities;
  }

  /** Whether some tools are reached only through `tool_search` and the dispatchers. */
  get hasCatalog(): boolean {
    return this.registered.length !== this.tools.length ||
      this.registered.some((wire) => wire.file === "catalog");
  }

  /**
   * Build and check the registry.
   *
   * @throws {RegistryError} on too many tools, a reserved or duplicate name, a schema
   * that cannot be converted or breaks a bound, any definition the wire
   * schema rejects, or an `initialize` request over the input frame (the
   * message says by how many bytes and lists each tool's cost, largest first).
   *
   * @example
   * ```ts
   * import { z } from "zod";
   * import { defineTool } from "../tool/define.ts";
   * import { ToolRegistry } from "./registry.ts";
   *
   * const tool = defineTool({
   *   name: "echo",
   *   description: "Return the text.",
   *   input: z.object({ text: z.string() }),
   *   effect: "read",
   *   run: ({ text }) => text,
   * });
   * const registry = ToolRegistry.fromLoaded([{ tool, file: "echo.ts", url: "file:///echo.ts" }]);
   * console.assert(registry.definitions()[0]?.input_schema["type"] === "object");
   * ```
   */
  static fromLoaded(loaded: readonly LoadedTool[], options: RegistryOptions = {}): ToolRegistry {
    const capabilities = checkCapabilities(options.requiredCapabilities);
    const all: {
      tool: AnyTool | ExternalTool;
      file: string;
      source: ToolSourceInfo;
      describedInput?: InputSchemaResult | undefined;
    }[] = [
      ...loaded.map(({ tool, file, describedInput }) => ({
        tool,
        file,
        source: Object.freeze({ kind: "module" as const, name: file }),
        describedInput,
      })),
      ...(options.external ?? []).map((tool) => {
        if (!isExternalTool(tool)) {
          throw new RegistryError("External tool was not made by defineExternalTool");
        }
        return {
          tool,
          file: `${tool.source.kind}:${tool.source.name}`,
          source: Object.freeze({ kind: tool.source.kind, name: tool.source.name }),
        };
      }),
    ];
    if (all.length > MAX_TOOLS) {
      const fix = fixFor(all.map((entry) => entry.tool));
      throw new RegistryError(
        `Too many tools: ${all.length} exceeds the limit of ${MAX_TOOLS}: ${
          all.slice(0, 10).map((entry) => isExternalTool(entry.tool) ? where(entry) : entry.file)
            .join(", ")
        }, …${fix}`,
      );
    }
    const catalog = all.length > CLIENT_TOOLS_LIMITS.tools;
    const reserved = [
      ...(options.reservedNames ?? RESERVED_TOOL_NAMES),
      ...(catalog ? CATALOG_TOOL_NAMES : []),
    ];
    const seen = new Map<string, string>();
    const tools = all.map((entry) => {
      const { tool, file, source, describedInput } = entry;
      if (reserved.includes(tool.name)) {
        throw new RegistryError(
          `Tool name ${tool.name} is reserved for a backend built-in tool: ${file}; rename the tool (reserved names: ${
            reserved.join(", ")
          })`,
        );
      }
      const earlier = seen.get(tool.name);
      if (earlier !== undefined) {
        throw new RegistryError(`Duplicate tool name: ${tool.name} in ${earlier} and ${file}`);
      }
      seen.set(tool.name, file);
      const definition = definitionOf(tool, file, describedInput);
      const outputSchema = isExternalTool(tool) ? undefined : outputSchemaFor(tool, file);
      const title = isExternalTool(tool) ? undefined : tool.title;
      return Object.freeze({
        kind: kindOf(tool),
        tool,
        file,
        source,
        definition,
        toolId: toolIdOf(definition as JsonObject),
        definitionBytes: utf8ByteLength(JSON.stringify(definition)),
        ...(title === undefined ? {} : { title }),
        annotations: Object.freeze(annotationsOf(tool, isExternalTool(tool))),
        ...(outputSchema === undefined ? {} : { outputSchema }),
      }) as RegisteredTool;
    });
    if (catalog) {
      const fits = (wire: readonly WireTool[]) => measure(wire, capabilities).remainingBytes >= 0;
      return new ToolRegistry(tools, capabilities, catalogRegistration(tools, fits));
    }
    const registry = new ToolRegistry(tools, capabilities);
    const budget = registry.budget();
    if (budget.remainingBytes < 0) {
      throw new RegistryError(overBudgetMessage(budget) + fixFor(tools.map((entry) => entry.tool)));
    }
    return registry;
  }

  /** The `client_tools` list of the `initialize` params, in order. */
  definitions(): ClientToolDefinition[] {
    return this.registered.map((entry) => entry.definition);
  }

  /** The registered tool called `name`. */
  get(name: string): RegisteredTool | undefined {
    return this.#byName.get(name);
  }

  /** Measure the `initialize` request against the input frame bound. */
  budget(): FrameBudget {
    return measure(this.registered, this.#capabilities);
  }

  /**
   * Check the backend's `client.tools` descriptor: the same names in the same
   * order, each `tool_id` equal to the recomputed SHA-256 of our definition.
   *
   * @throws {RegistryError} on any difference (fail closed).
   */
  verifyDescriptor(descriptor: { tools: readonly { name: string; tool_id: string }[] }): void {
    const theirs = descriptor.tools;
    if (theirs.length !== this.registered.length) {
      throw new RegistryError(
        `Backend registered ${theirs.length} tools, expected ${this.registered.length}`,
      );
    }
    this.registered.forEach((entry, index) => {
      const other = theirs[index];
      const name = entry.name;
      if (other?.name !== name) {
        throw new RegistryError(
          `Backend registered a different tool at position ${index}: expected ${name}`,
        );
      }
      if (other.tool_id !== toolIdOf(entry.definition as JsonObject)) {
        throw new RegistryError(
          `Backend registered a different definition: ${name}: tool_id mismatch`,
        );
      }
    });
  }
}

/**
 * The one place a tool's kind is asked (`ToolKind`): external, inline (declared, or no process
 * sandbox in this runtime), or process (also a described tool: no code in the host).
 */
function kindOf(tool: AnyTool | ExternalTool): ToolKind {
  if (isExternalTool(tool)) return "external";
  if (isTool(tool) && (tool.isolation === "inline" || !supportsProcessIsolation())) return "inline";
  return "process";
}

/**
 * The zod input schema the host holds for `entry`: a module tool's (inline, or a process tool
 * imported in the host), none for a described or external tool (its process or source checks).
 */
export function hostInputOf(entry: RegisteredTool): Tool["input"] | undefined {
  return entry.kind !== "external" && isTool(entry.tool) ? entry.tool.input : undefined;
}
