/**
 * The `openapi` section of `magi-tools.jsonc`: one entry per HTTP API, keyed
 * by a name. Parsed strictly: an unknown key, a wrong type or a bad value is
 * an {@link OpenApiError} naming the config file and the key path
 * (`openapi.tickets.auth.header`).
 *
 * ```jsonc
 * { "openapi": { "tickets": {
 *     "spec": "specs/tickets.yaml",            // path (relative to the config file) or http(s) URL
 *     "baseUrl": "http://127.0.0.1:8080/api",  // default: the document's first server
 *     "auth": { "header": "Authorization", "valueFromEnv": "TICKETS_TOKEN", "prefix": "Bearer " },
 *     // or, instead of auth: OAuth 2 client credentials (tokenUrl default: the document's
 *     // oauth2 securityScheme with a clientCredentials flow)
 *     // "clientCredentials": { "tokenUrl": "https://id.example.com/token",
 *     //   "clientIdFromEnv": "TICKETS_CLIENT_ID", "clientSecretFromEnv": "TICKETS_CLIENT_SECRET",
 *     //   "scopes": ["tickets:read"], "resource": "http://127.0.0.1:8080/api" },
 *     "include": ["getTicket", "tickets/*"],   // operationIds or globs (default: all)
 *     "effects": { "closeTicket": "read" },    // per operationId or tool name
 *     "timeoutMs": 10000 } } }
 * ```
 *
 * @module
 */

import { z } from "zod";
import { dirname, isAbsolute, join } from "node:path";
import {
  CLIENT_TOOL_MIN_TIMEOUT_MS,
  CLIENT_TOOLS_LIMITS,
  MIN_RESULT_BYTES,
} from "../protocol/limits.ts";
import { OpenApiError } from "./errors.ts";

/** How an API entry is named: like a tool name, so it can appear in messages and listings. */
export const API_NAME_PATTERN: RegExp = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Default `timeoutMs` of an API's tools, ms. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** A header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** An environment variable name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The schema of one API entry, built on first use: most runs have no OpenAPI section, and
 * building zod schemas when the module loads is a measurable share of startup (bench/notes.md).
 */
function apiSchema() {
  return apiSchemaBuilt ??= buildApiSchema();
}

let apiSchemaBuilt: ReturnType<typeof buildApiSchema> | undefined;

function buildApiSchema() {
  const authSchema = z.strictObject({
    header: z.string().regex(HEADER_NAME, "must be an HTTP header name"),
    valueFromEnv: z.string().regex(ENV_NAME, "must be an environment variable name"),
    prefix: z.string().refine((s) => !/[\r\n\0]/.test(s), "must not contain CR, LF or NUL")
      .optional(),
  });
  const scope = z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, "must be an OAuth scope token");
  const clientCredentialsSchema = z.strictObject({
    tokenUrl: httpUrl("URL").optional(),
    clientIdFromEnv: z.string().regex(ENV_NAME, "must be an environment variable name"),
    clientSecretFromEnv: z.string().regex(ENV_NAME, "must be an environment variable name"),
    scopes: z.array(scope).optional(),
    resource: z.string().refine((s) => URL.canParse(s) && !s.includes("#"), {
      message: "must be an absolute URI without a fragment",
    }).optional(),
  });
  return z.strictObject({
    spec: z.string().min(1, "must not be empty"),
    baseUrl: httpUrl("URL").optional(),
    auth: authSchema.optional(),
    clientCredentials: clientCredentialsSchema.optional(),
    include: z.array(z.string().min(1, "must not be empty")).min(1, "must not be empty")
      .optional(),
    effects: z.record(z.string(), z.enum(["read", "write"])).optional(),
    timeoutMs: z.int().min(CLIENT_TOOL_MIN_TIMEOUT_MS).max(CLIENT_TOOLS_LIMITS.max_timeout_ms)
      .optional(),
    maxResultBytes: z.int().min(MIN_RESULT_BYTES).max(CLIENT_TOOLS_LIMITS.result_bytes)
      .optional(),
    overflow: z.enum(["error", "truncate", "spill"]).optional(),
  });
}

const httpUrl = (what: string) =>
  z.string().refine((s) => {
    try {
      const url = new URL(s);
      return (url.protocol === "http:" || url.protocol === "https:") && url.username === "" &&
        url.password === "" && url.search === "" && url.hash === "";
    } catch {
      return false;
    }
  }, `must be an http(s) ${what} without credentials, query or fragment`);

/** Authentication: one header whose value is read from the environment at call time. */
export interface OpenApiAuth {
  /** Header name, e.g. `Authorization`. */
  readonly header: string;
  /** The environment variable holding the secret; never copied anywhere but the request. */
  readonly valueFromEnv: string;
  /** Put before the value, e.g. `Bearer `. */
  readonly prefix: string;
}

/**
 * OAuth 2 client credentials (RFC 6749 §4.4): the host asks the token URL for
 * an access token with the client ID and secret read from the environment,
 * and sends it as `Authorization: Bearer <token>`.
 */
export interface ClientCredentialsAuth {
  /** The token endpoint as configured; absent: the document's oauth2 clientCredentials flow. */
  readonly tokenUrl?: string;
  /** The environment variable holding the client ID. */
  readonly clientIdFromEnv: string;
  /** The environment variable holding the client secret; never copied anywhere but the token request. */
  readonly clientSecretFromEnv: string;
  /** Scopes asked for (none: the server's default). */
  readonly scopes: readonly string[];
  /** The resource indicator (RFC 8707) asked for, if any. */
  readonly resource?: string;
}

/** One `openapi.<name>` entry, checked, with the document location resolved. */
export interface OpenApiConfig {
  /** The entry's key. */
  readonly name: string;
  /** The config file it came from (for messages). */
  readonly configFile: string;
  /** `spec` as written (for messages). */
  readonly spec: string;
  /**
   * Where to read the document: an http(s) URL, or a path (relative to the
   * config file's directory when `spec` is relative: still relative to the
   * working directory when the config file was named relatively).
   */
  readonly specLocation: string;
  /** `baseUrl` as written, if given. */
  readonly baseUrl?: string;
  /** Authentication with a header from one variable, if any. */
  readonly auth?: OpenApiAuth;
  /** Authentication with OAuth 2 client credentials, if any (never with `auth`). */
  readonly clientCredentials?: ClientCredentialsAuth;
  /** Operation selectors, if given (else every operation). */
  readonly include?: readonly string[];
  /** Effect overrides per operationId or tool name. */
  readonly effects: Readonly<Record<string, "read" | "write">>;
  /** Each tool's own timeout, ms. */
  readonly timeoutMs: number;
  /** Each tool's result bound, UTF-8 bytes (`defineTool`'s `maxResultBytes`). */
  readonly maxResultBytes?: number;
  /** What a result over the bound becomes (`defineTool`'s `overflow`). */
  readonly overflow?: "error" | "truncate" | "spill";
}

/**
 * Parse the value of the `openapi` key of `configFile` (already JSONC-parsed).
 * A relative `spec` path is joined to the config file's directory.
 *
 * @example
 * ```ts
 * import { parseOpenApiSection } from "./config.ts";
 * const [api] = parseOpenApiSection({ pets: { spec: "pets.yaml" } }, "/w/magi-tools.jsonc");
 * console.assert(api!.specLocation === "/w/pets.yaml" && api!.timeoutMs === 10_000);
 * ```
 */
export function parseOpenApiSection(value: unknown, configFile: string): OpenApiConfig[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new OpenApiError(configFile, "openapi", "must be an object of API entries");
  }
  const apis: OpenApiConfig[] = [];
  for (const [name, entry] of Object.entries(value)) {
    const at = `openapi.${name}`;
    if (!API_NAME_PATTERN.test(name)) {
      throw new OpenApiError(configFile, at, `API name must match ${API_NAME_PATTERN.source}`);
    }
    const parsed = apiSchema().safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = issue.path.map((key) => typeof key === "number" ? `[${key}]` : `.${String(key)}`)
        .join("");
      const message = issue.code === "unrecognized_keys"
        ? `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")}`
        : issue.message.replace(
          /^Invalid input: expected (.*), received undefined$/,
          "required ($1)",
        );
      throw new OpenApiError(configFile, at + path, message);
    }
    const api = parsed.data;
    if (api.auth !== undefined && api.clientCredentials !== undefined) {
      throw new OpenApiError(configFile, `${at}.clientCredentials`, "cannot be used with auth");
    }
    const cc = api.clientCredentials;
    const remote = /^https?:\/\//i.test(api.spec);
    apis.push({
      name,
      configFile,
      spec: api.spec,
      specLocation: remote || isAbsolute(api.spec) ? api.spec : join(dirname(configFile), api.spec),
      ...(api.baseUrl === undefined ? {} : { baseUrl: api.baseUrl }),
      ...(api.auth === undefined ? {} : {
        auth: {
          header: api.auth.header,
          valueFromEnv: api.auth.valueFromEnv,
          prefix: api.auth.prefix ?? "",
        },
      }),
      ...(cc === undefined ? {} : {
        clientCredentials: {
          ...(cc.tokenUrl === undefined ? {} : { tokenUrl: cc.tokenUrl }),
          clientIdFromEnv: cc.clientIdFromEnv,
          clientSecretFromEnv: cc.clientSecretFromEnv,
          scopes: cc.scopes ?? [],
          ...(cc.resource === undefined ? {} : { resource: cc.resource }),
        },
      }),
      ...(api.include === undefined ? {} : { include: api.include }),
      effects: api.effects ?? {},
      timeoutMs: api.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      ...(api.maxResultBytes === undefined ? {} : { maxResultBytes: api.maxResultBytes }),
      ...(api.overflow === undefined ? {} : { overflow: api.overflow }),
    });
  }
  return apis;
}
