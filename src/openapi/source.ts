/**
 * The OpenAPI tool source: `openapi` config entries → {@link ExternalTool}s.
 *
 * Order of work per API: read and parse the document, select the operations
 * (`include`), resolve their `$ref`s, pick the base URL, map each operation
 * to a tool (name, description, input schema, effect), compile its argument
 * validator. Every failure is an {@link OpenApiError} naming the file, the
 * JSON pointer or config key, and the reason. An operation matched only by a
 * glob that cannot be mapped (e.g. a multipart body) is skipped and listed in
 * {@link OpenApiTools.skipped}; one named by its exact `operationId` is an error.
 *
 * A call: validate (`invalid_arguments`) → build the request under the base
 * URL → run the exchange in the API's sandboxed child → the body, or an
 * `ExternalToolError` (`http_<status>`, `timeout`, `tool_failed`, …); see
 * `_operation_tool.ts`.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import type { ExternalTool } from "../tool/external.ts";
import { MAX_TOOLS } from "../toolset/catalog.ts";
import type { OpenApiConfig } from "./config.ts";
import { type OperationRef, readDocument, resolveOperations } from "./document.ts";
import { jsonPointer, OpenApiError } from "./errors.ts";
import {
  type OperationPlan,
  planOperation,
  selectOperations,
  UnsupportedOperation,
} from "./operations.ts";
import { readEnv } from "./auth.ts";
import { ClientCredentialsTokens, tokenUrlOf } from "./oauth.ts";
import {
  type ExchangeSandbox,
  ExchangeTransport,
  type ExchangeTransportOptions,
  hostPortOf,
} from "./transport.ts";
import { compileValidator } from "./validate.ts";
import { makeTool, type ToolWiring } from "./_operation_tool.ts";

type Json = Record<string, unknown>;

/** An operation left out because it cannot be mapped. */
export interface SkippedOperation {
  /** The API's config key. */
  readonly api: string;
  /** The document, as configured. */
  readonly file: string;
  /** JSON pointer of the part at fault. */
  readonly pointer: string;
  /** Why. */
  readonly reason: string;
}

/** What {@link loadOpenApiTools} made. */
export interface OpenApiTools {
  /** One tool per mapped operation, API by API in config order, operations in document order. */
  readonly tools: readonly ExternalTool[];
  /** Each tool's plan (method, path, base URL), by tool name, for listings. */
  readonly plans: ReadonlyMap<string, OperationPlan & { readonly baseUrl: string }>;
  /** Operations matched by a glob but left out. */
  readonly skipped: readonly SkippedOperation[];
  /** Each API's base URL (where its requests and its secret go), by config key. */
  readonly baseUrls: ReadonlyMap<string, string>;
  /** Each API's token URL (where its client credentials go), by config key, when it has one. */
  readonly tokenUrls: ReadonlyMap<string, string>;
  /** Stop and reap the sandboxed HTTP processes. */
  close(): Promise<void>;
}

/**
 * Options of {@link loadOpenApiTools}. `cwd` also resolves relative document
 * paths (default the host's working directory).
 */
export interface LoadOpenApiOptions extends ExchangeTransportOptions {
  /** Largest response body accepted, bytes; default `result_bytes` (1 MiB). */
  readonly maxResponseBytes?: number;
}

/**
 * Load every API of `apis` as tools. Nothing is started until a tool is
 * called; call {@link OpenApiTools.close} at shutdown.
 *
 * @example
 * ```ts ignore
 * const apis = parseOpenApiSection(config.openapi, "magi-tools.jsonc");
 * const { tools, close } = await loadOpenApiTools(apis);
 * ```
 */
export async function loadOpenApiTools(
  apis: readonly OpenApiConfig[],
  options: LoadOpenApiOptions = {},
): Promise<OpenApiTools> {
  const loader = new ToolsLoader(options);
  for (const [index, api] of apis.entries()) await loader.loadApi(api, index);
  const { tools, plans, skipped, baseUrls, tokenUrls } = loader;
  return { tools, plans, skipped, baseUrls, tokenUrls, close: () => loader.transport.close() };
}

/** One API as {@link ToolsLoader} maps its operations. */
interface ApiInLoad {
  readonly api: OpenApiConfig;
  /** The document, as configured (for messages). */
  readonly display: string;
  /** The document's OpenAPI version. */
  readonly version: "3.0" | "3.1";
  /** The document with the selected operations' `$ref`s resolved. */
  readonly resolved: Json;
  /** Pointers of the operations `include` names by exact `operationId`. */
  readonly explicit: ReadonlySet<string>;
  /** What the API's tools share. */
  readonly wiring: Omit<ToolWiring, "validate">;
  /** The `effects` keys an operation took. */
  readonly used: Set<string>;
}

/** What {@link loadOpenApiTools} gathers, API by API. */
class ToolsLoader {
  readonly transport: ExchangeTransport;
  readonly tools: ExternalTool[] = [];
  readonly plans = new Map<string, OperationPlan & { baseUrl: string }>();
  readonly skipped: SkippedOperation[] = [];
  readonly baseUrls = new Map<string, string>();
  readonly tokenUrls = new Map<string, string>();
  /** Where each tool name came from (`file pointer`), to name a collision. */
  readonly #owners = new Map<string, string>();
  readonly #options: LoadOpenApiOptions;
  readonly #maxBytes: number;

  constructor(options: LoadOpenApiOptions) {
    this.#options = options;
    this.transport = new ExchangeTransport(options);
    this.#maxBytes = options.maxResponseBytes ?? CLIENT_TOOLS_LIMITS.result_bytes;
  }

  /**
   * Read `api`'s document, select and resolve its operations, find where its
   * requests and tokens go, and add a tool per operation; `index` keeps its
   * sandbox apart from the other APIs'.
   */
  async loadApi(api: OpenApiConfig, index: number): Promise<void> {
    const display = api.specLocation;
    const remote = /^https?:\/\//i.test(api.specLocation);
    const location = remote || isAbsolute(api.specLocation)
      ? api.specLocation
      : resolve(this.#options.cwd ?? ".", api.specLocation);
    const doc = await readDocument(location, display);
    const selection = selectOperations(doc.operations, api);
    if (selection.operations.length > MAX_TOOLS) {
      throw new OpenApiError(
        api.configFile,
        `openapi.${api.name}${api.include === undefined ? "" : ".include"}`,
        `${selection.operations.length} operations selected, at most ${MAX_TOOLS} tools: ` +
          "list the ones the agent needs in include",
      );
    }
    const resolved = await resolveOperations(doc, selection.operations, display);
    // From the document as read: `trust` finds the same destination without resolving $refs.
    const base = baseUrlOf(api, doc.root, display, remote ? location : undefined);
    this.baseUrls.set(api.name, base.href);
    const tokenUrl = tokenUrlOf(api, doc.root, display, remote ? location : undefined);
    let tokens: ClientCredentialsTokens | undefined;
    if (tokenUrl !== undefined) {
      this.tokenUrls.set(api.name, tokenUrl.href);
      tokens = new ClientCredentialsTokens(
        api.clientCredentials!,
        tokenUrl,
        readEnv,
        api.timeoutMs,
      );
    }
    const sandbox: ExchangeSandbox = {
      // One warm pool per API in the shared runner: the index keeps cut names apart.
      name: `openapi${index}_${api.name}`.slice(0, 64),
      net: hostPortOf(base),
    };
    const wiring = { base, sandbox, transport: this.transport, maxBytes: this.#maxBytes, tokens };
    const inLoad: ApiInLoad = {
      api,
      display,
      version: doc.version,
      resolved,
      explicit: selection.explicit,
      wiring,
      used: new Set(),
    };
    for (const op of selection.operations) this.#addOperation(inLoad, op);
    for (const key of Object.keys(api.effects)) {
      if (!inLoad.used.has(key)) {
        throw new OpenApiError(
          api.configFile,
          `openapi.${api.name}.effects.${key}`,
          "names no selected operation (an operationId or tool name)",
        );
      }
    }
  }

  /**
   * Map `op` to a tool and add it, or skip it (listed in `skipped`) when it
   * cannot be mapped and `include` did not name it exactly.
   */
  #addOperation(inLoad: ApiInLoad, op: OperationRef): void {
    const { api, display } = inLoad;
    let planned;
    try {
      planned = planOperation(inLoad.resolved, op, {
        version: inLoad.version,
        ...(api.auth === undefined ? {} : { authHeader: api.auth.header }),
      });
    } catch (error) {
      if (!(error instanceof UnsupportedOperation)) throw error;
      if (inLoad.explicit.has(op.pointer)) {
        throw new OpenApiError(display, error.pointer, error.message);
      }
      this.skipped.push({
        api: api.name,
        file: display,
        pointer: error.pointer,
        reason: error.message,
      });
      return;
    }
    const { defaultEffect, ...rest } = planned;
    const owner = this.#owners.get(rest.name);
    if (owner !== undefined) {
      throw new OpenApiError(
        display,
        op.pointer,
        `tool name ${rest.name} collides with ${owner}: give one an operationId of its own`,
      );
    }
    this.#owners.set(rest.name, `${display} ${op.pointer}`);
    const override = (op.operationId === undefined ? undefined : api.effects[op.operationId]) ??
      api.effects[rest.name];
    if (override !== undefined) {
      if (op.operationId !== undefined) inLoad.used.add(op.operationId);
      inLoad.used.add(rest.name);
    }
    const plan: OperationPlan = { ...rest, effect: override ?? defaultEffect };
    let validate;
    try {
      validate = compileValidator(plan.inputSchema);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new OpenApiError(display, op.pointer, `the input schema does not compile: ${reason}`);
    }
    this.plans.set(plan.name, { ...plan, baseUrl: inLoad.wiring.base.href });
    this.tools.push(makeTool(api, plan, { ...inLoad.wiring, validate }));
  }
}

/** Where one API's requests and secrets go. */
export interface OpenApiDestination {
  /** The base URL: requests, the `auth` header, the client credentials' access token. */
  readonly baseUrl: string;
  /** The token URL, with `clientCredentials`: the client ID and secret. */
  readonly tokenUrl?: string;
}

/**
 * Where `api`'s requests (and its secret) go: its `baseUrl`, else the first
 * `servers` entry of its document, and with client credentials its token URL
 * (`clientCredentials.tokenUrl`, else the document's oauth2 flow), read as
 * {@link loadOpenApiTools} reads them (no `$ref` resolved, nothing started).
 * `trust` records them.
 *
 * @throws {OpenApiError} naming the document or config key when one cannot be found.
 */
export async function openApiDestination(
  api: OpenApiConfig,
  options: { readonly cwd?: string } = {},
): Promise<OpenApiDestination> {
  const ccUrl = api.clientCredentials?.tokenUrl;
  if (api.baseUrl !== undefined && (api.clientCredentials === undefined || ccUrl !== undefined)) {
    return {
      baseUrl: new URL(api.baseUrl).href,
      ...(ccUrl === undefined ? {} : { tokenUrl: new URL(ccUrl).href }),
    };
  }
  const remote = /^https?:\/\//i.test(api.specLocation);
  const location = remote || isAbsolute(api.specLocation)
    ? api.specLocation
    : resolve(options.cwd ?? ".", api.specLocation);
  const doc = await readDocument(location, api.specLocation);
  const documentUrl = remote ? location : undefined;
  const tokenUrl = tokenUrlOf(api, doc.root, api.specLocation, documentUrl);
  return {
    baseUrl: baseUrlOf(api, doc.root, api.specLocation, documentUrl).href,
    ...(tokenUrl === undefined ? {} : { tokenUrl: tokenUrl.href }),
  };
}

/** Options of {@link startOpenApiSource}. */
export interface StartOpenApiOptions extends LoadOpenApiOptions {
  /** Receives each operation left out (matched by a glob, cannot be mapped). */
  readonly onSkipped?: (skipped: SkippedOperation) => void;
}

/**
 * One `openapi` entry as a started source (the shape `src/sources/start.ts`
 * starts every source in): its tools, its base URL (checked against the
 * approval's record), and `close` to reap its HTTP processes.
 * Rejects with an {@link OpenApiError} naming the file, pointer and reason.
 */
export async function startOpenApiSource(
  api: OpenApiConfig,
  options: StartOpenApiOptions = {},
): Promise<
  {
    readonly tools: readonly ExternalTool[];
    readonly baseUrl: string;
    readonly tokenUrl?: string;
    close(): Promise<void>;
  }
> {
  const source = await loadOpenApiTools([api], options);
  for (const skipped of source.skipped) options.onSkipped?.(skipped);
  const tokenUrl = source.tokenUrls.get(api.name);
  return {
    tools: source.tools,
    baseUrl: source.baseUrls.get(api.name)!,
    ...(tokenUrl === undefined ? {} : { tokenUrl }),
    close: () => source.close(),
  };
}

/** `api.baseUrl`, else the document's first server (variables at their defaults). */
function baseUrlOf(
  api: OpenApiConfig,
  doc: Json,
  display: string,
  documentUrl: string | undefined,
): URL {
  if (api.baseUrl !== undefined) return new URL(api.baseUrl);
  const servers = doc["servers"];
  const first = Array.isArray(servers) ? servers[0] as Json | undefined : undefined;
  const pointer = jsonPointer(["servers", 0, "url"]);
  if (first === undefined || typeof first["url"] !== "string") {
    throw new OpenApiError(
      api.configFile,
      `openapi.${api.name}.baseUrl`,
      `required: ${display} has no servers entry`,
    );
  }
  let text = first["url"];
  const variables = (first["variables"] ?? {}) as Record<string, Json>;
  text = text.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = variables[name]?.["default"];
    return typeof value === "string" ? value : whole;
  });
  const url = URL.parse(text, documentUrl);
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new OpenApiError(
      display,
      pointer,
      `the first server URL ${text} is not an absolute http(s) URL: set openapi.${api.name}.baseUrl`,
    );
  }
  url.search = "";
  url.hash = "";
  return url;
}
