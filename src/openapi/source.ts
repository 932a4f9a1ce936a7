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
 * {@link ExternalToolError} (`http_<status>`, `timeout`, `tool_failed`, …).
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import {
  defineExternalTool,
  type ExternalTool,
  type ExternalToolContext,
  ExternalToolError,
} from "../tool/external.ts";
import { MAX_TOOLS } from "../toolset/catalog.ts";
import type { OpenApiConfig } from "./config.ts";
import { readDocument, resolveOperations } from "./document.ts";
import { jsonPointer, OpenApiError } from "./errors.ts";
import type { HttpExchange } from "./http.ts";
import {
  type OperationPlan,
  planOperation,
  selectOperations,
  UnsupportedOperation,
} from "./operations.ts";
import { bearer, headerAuth, readEnv } from "./auth.ts";
import { ClientCredentialsTokens, tokenUrlOf } from "./oauth.ts";
import { SecretRedactor } from "./redact.ts";
import { buildRequest, type HttpRequestSpec } from "./request.ts";
import {
  type ExchangeSandbox,
  ExchangeTransport,
  type ExchangeTransportOptions,
  hostPortOf,
} from "./transport.ts";
import { compileValidator } from "./validate.ts";

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
  const transport = new ExchangeTransport(options);
  const tools: ExternalTool[] = [];
  const plans = new Map<string, OperationPlan & { baseUrl: string }>();
  const skipped: SkippedOperation[] = [];
  const baseUrls = new Map<string, string>();
  const tokenUrls = new Map<string, string>();
  const owners = new Map<string, string>();
  const maxBytes = options.maxResponseBytes ?? CLIENT_TOOLS_LIMITS.result_bytes;
  for (const [index, api] of apis.entries()) {
    const display = api.specLocation;
    const remote = /^https?:\/\//i.test(api.specLocation);
    const location = remote || isAbsolute(api.specLocation)
      ? api.specLocation
      : resolve(options.cwd ?? ".", api.specLocation);
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
    baseUrls.set(api.name, base.href);
    const tokenUrl = tokenUrlOf(api, doc.root, display, remote ? location : undefined);
    let tokens: ClientCredentialsTokens | undefined;
    if (tokenUrl !== undefined) {
      tokenUrls.set(api.name, tokenUrl.href);
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
    const used = new Set<string>();
    for (const op of selection.operations) {
      let planned;
      try {
        planned = planOperation(resolved, op, {
          version: doc.version,
          ...(api.auth === undefined ? {} : { authHeader: api.auth.header }),
        });
      } catch (error) {
        if (!(error instanceof UnsupportedOperation)) throw error;
        if (selection.explicit.has(op.pointer)) {
          throw new OpenApiError(display, error.pointer, error.message);
        }
        skipped.push({
          api: api.name,
          file: display,
          pointer: error.pointer,
          reason: error.message,
        });
        continue;
      }
      const { defaultEffect, ...rest } = planned;
      const owner = owners.get(rest.name);
      if (owner !== undefined) {
        throw new OpenApiError(
          display,
          op.pointer,
          `tool name ${rest.name} collides with ${owner}: give one an operationId of its own`,
        );
      }
      owners.set(rest.name, `${display} ${op.pointer}`);
      const override = (op.operationId === undefined ? undefined : api.effects[op.operationId]) ??
        api.effects[rest.name];
      if (override !== undefined) {
        if (op.operationId !== undefined) used.add(op.operationId);
        used.add(rest.name);
      }
      const plan: OperationPlan = { ...rest, effect: override ?? defaultEffect };
      let validate;
      try {
        validate = compileValidator(plan.inputSchema);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new OpenApiError(display, op.pointer, `the input schema does not compile: ${reason}`);
      }
      plans.set(plan.name, { ...plan, baseUrl: base.href });
      tools.push(makeTool(api, plan, { base, sandbox, transport, validate, maxBytes, tokens }));
    }
    for (const key of Object.keys(api.effects)) {
      if (!used.has(key)) {
        throw new OpenApiError(
          api.configFile,
          `openapi.${api.name}.effects.${key}`,
          "names no selected operation (an operationId or tool name)",
        );
      }
    }
  }
  return { tools, plans, skipped, baseUrls, tokenUrls, close: () => transport.close() };
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

interface ToolWiring {
  readonly base: URL;
  readonly sandbox: ExchangeSandbox;
  readonly transport: ExchangeTransport;
  readonly validate: (args: unknown) => string | null;
  readonly maxBytes: number;
  /** With client credentials: the API's access tokens. */
  readonly tokens: ClientCredentialsTokens | undefined;
}

function makeTool(api: OpenApiConfig, plan: OperationPlan, wiring: ToolWiring): ExternalTool {
  const { base, sandbox, transport, validate, maxBytes, tokens } = wiring;
  /**
   * One exchange in the sandbox. The child redacts already; the host does again, over every
   * text that reaches the model or the summaries, the sandbox's own failure messages included.
   */
  const exchangeOnce = async (
    request: HttpRequestSpec,
    auth: HttpExchange["auth"],
    ctx: ExternalToolContext,
  ) => {
    const left = Math.max(1, Math.floor(Math.min(api.timeoutMs, ctx.deadline - Date.now())));
    const exchange: HttpExchange = {
      ...request,
      baseUrl: base.href,
      timeoutMs: left,
      maxBytes,
      ...(auth === undefined ? {} : { auth }),
    };
    const redactor = new SecretRedactor(auth?.secret);
    try {
      return await transport.exchange(sandbox, exchange, ctx);
    } catch (error) {
      if (error instanceof ExternalToolError) {
        throw new ExternalToolError(error.code, redactor.redact(error.message));
      }
      if (error instanceof Error && !ctx.signal.aborted) {
        error.message = redactor.redact(error.message);
        if (error.stack !== undefined) error.stack = redactor.redact(error.stack);
      }
      throw error;
    }
  };
  return defineExternalTool({
    name: plan.name,
    description: plan.description,
    inputSchema: plan.inputSchema,
    effect: plan.effect,
    timeoutMs: api.timeoutMs,
    ...(api.maxResultBytes === undefined ? {} : { maxResultBytes: api.maxResultBytes }),
    ...(api.overflow === undefined ? {} : { overflow: api.overflow }),
    source: { kind: "openapi", name: api.name },
    validate,
    async run(args, ctx) {
      const invalid = validate(args);
      if (invalid !== null) {
        throw new ExternalToolError("invalid_arguments", `Invalid arguments: ${invalid}`);
      }
      const request = buildRequest(plan, args, base);
      let auth = tokens === undefined ? headerAuth(api) : await bearer(tokens);
      let outcome = await exchangeOnce(request, auth, ctx);
      if (tokens !== undefined && !outcome.ok && outcome.code === "http_401") {
        // The token expired early or was revoked: one more try with a new one.
        tokens.invalidate(auth!.secret);
        auth = await bearer(tokens);
        outcome = await exchangeOnce(request, auth, ctx);
      }
      const redactor = new SecretRedactor(auth?.secret);
      if (!outcome.ok) {
        throw new ExternalToolError(outcome.code, redactor.redact(outcome.message));
      }
      return redactor.redact(outcome.text);
    },
  });
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
