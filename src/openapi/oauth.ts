/**
 * OAuth 2 client credentials (RFC 6749 §4.4) for an OpenAPI source: the host
 * asks the token endpoint for an access token with the client ID and secret
 * read from its environment, keeps the token in memory only, and asks again
 * when fewer than {@link RENEW_MARGIN_MS} of its lifetime are left, or when
 * the API answered 401 to it ({@link ClientCredentialsTokens.invalidate}).
 *
 * The request is made by the host (never the API's sandboxed child, which
 * may reach only the API): `POST` of `grant_type=client_credentials`, `scope`
 * and `resource` (RFC 8707) as a form, the client authenticated with HTTP
 * Basic (`client_secret_basic`, each part form-encoded), no redirect
 * followed (a 3xx is an error: the secret goes to the approved token URL
 * only). Every failure is a `tool_failed` {@link ExternalToolError} naming
 * the token URL and, for an error answer, its `error` and
 * `error_description`, with the client secret redacted.
 *
 * The token URL comes from the config, else from the document
 * ({@link documentTokenUrl}); where it is decided by the document, `trust`
 * records it and a changed one is refused (src/config/trust.ts).
 *
 * @module
 */

import { ExternalToolError } from "../tool/external.ts";
import type { ClientCredentialsAuth, OpenApiConfig } from "./config.ts";
import { OpenApiError } from "./errors.ts";
import { SecretRedactor } from "./redact.ts";
import { hasHeaderBreak } from "../text/control.ts";

type Json = Record<string, unknown>;

/** A token with fewer ms than this left is renewed before it is sent. */
export const RENEW_MARGIN_MS = 60_000;

/** Largest token response read, bytes. */
const TOKEN_RESPONSE_BYTES = 65_536;

/** Reads a host environment variable; throws when the host may not read it. */
export type EnvReader = (name: string) => string | undefined;

/** A token and when it stops being used (ms since the epoch; Infinity: until a 401). */
interface Cached {
  readonly token: string;
  readonly renewAt: number;
}

/** The access tokens of one API: fetched on first use, cached, renewed. */
export class ClientCredentialsTokens {
  readonly #auth: ClientCredentialsAuth;
  readonly #tokenUrl: URL;
  readonly #env: EnvReader;
  readonly #timeoutMs: number;
  #cached: Cached | undefined;
  #pending: Promise<Cached> | undefined;

  /**
   * Tokens of `auth` from `tokenUrl`, with the client's ID and secret read by `env`; a token
   * request with no answer within `timeoutMs` (the API's `timeoutMs`) is a `timeout`.
   */
  constructor(auth: ClientCredentialsAuth, tokenUrl: URL, env: EnvReader, timeoutMs: number) {
    this.#auth = auth;
    this.#tokenUrl = tokenUrl;
    this.#env = env;
    this.#timeoutMs = timeoutMs;
  }

  /** A token with more than {@link RENEW_MARGIN_MS} left: the cached one, else a new one. */
  async token(): Promise<string> {
    const cached = this.#cached;
    if (cached !== undefined && Date.now() < cached.renewAt) return cached.token;
    // One request at a time: concurrent calls share it (so no one caller's signal ends it).
    this.#pending ??= this.#request().finally(() => this.#pending = undefined);
    const fresh = await this.#pending;
    this.#cached = fresh;
    return fresh.token;
  }

  /** Forget `token` (the API refused it): the next {@link token} asks for a new one. */
  invalidate(token: string): void {
    if (this.#cached?.token === token) this.#cached = undefined;
  }

  async #request(): Promise<Cached> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    const id = this.#variable(this.#auth.clientIdFromEnv);
    const secret = this.#variable(this.#auth.clientSecretFromEnv);
    const redactor = new SecretRedactor(secret);
    const where = `Token request to ${this.#tokenUrl.href}`;
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (this.#auth.scopes.length > 0) form.set("scope", this.#auth.scopes.join(" "));
    if (this.#auth.resource !== undefined) form.set("resource", this.#auth.resource);
    const basic = btoa(
      String.fromCharCode(...new TextEncoder().encode(`${formEncode(id)}:${formEncode(secret)}`)),
    );
    const started = Date.now();
    let response: Response;
    try {
      response = await fetch(this.#tokenUrl, {
        method: "POST",
        headers: {
          authorization: `Basic ${basic}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: form.toString(),
        redirect: "manual",
        signal,
      });
    } catch (error) {
      if (signal.aborted) {
        throw new ExternalToolError("timeout", `${where}: no answer within ${this.#timeoutMs} ms`);
      }
      const reason = error instanceof Error ? error.message : String(error);
      throw new ExternalToolError("tool_failed", redactor.redact(`${where} failed: ${reason}`));
    }
    const text = await readText(response, TOKEN_RESPONSE_BYTES).catch(() => "");
    if (response.status >= 300 && response.status < 400) {
      throw new ExternalToolError(
        "tool_failed",
        `${where} was redirected (HTTP ${response.status}): not followed, set the token endpoint itself`,
      );
    }
    let body: Json | undefined;
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        body = value as Json;
      }
    } catch {
      // Reported below.
    }
    if (!response.ok) {
      const error = typeof body?.["error"] === "string" ? body["error"] : undefined;
      const description = typeof body?.["error_description"] === "string"
        ? `: ${body["error_description"]}`
        : "";
      const detail = error === undefined ? "" : `: ${error}${description}`;
      throw new ExternalToolError(
        "tool_failed",
        redactor.redact(`${where} failed: HTTP ${response.status}${detail}`.slice(0, 1_024)),
      );
    }
    const token = body?.["access_token"];
    const type = body?.["token_type"];
    if (typeof token !== "string" || token === "" || hasHeaderBreak(token)) {
      throw new ExternalToolError("tool_failed", `${where}: the answer has no valid access_token`);
    }
    if (typeof type !== "string" || type.toLowerCase() !== "bearer") {
      throw new ExternalToolError(
        "tool_failed",
        `${where}: token_type ${JSON.stringify(type ?? null)} is not Bearer`,
      );
    }
    const expiresIn = body?.["expires_in"];
    const renewAt = typeof expiresIn === "number" && Number.isFinite(expiresIn)
      ? started + expiresIn * 1_000 - RENEW_MARGIN_MS
      : Infinity;
    return { token, renewAt };
  }

  #variable(name: string): string {
    let value: string | undefined;
    try {
      value = this.#env(name);
    } catch {
      throw new ExternalToolError(
        "tool_failed",
        `Authentication is not configured: the tool host may not read environment variable ${name} (start it with --allow-env=…,${name})`,
      );
    }
    if (value === undefined || value === "") {
      throw new ExternalToolError(
        "tool_failed",
        `Authentication is not configured: environment variable ${name} is not set`,
      );
    }
    return value;
  }
}

/** `application/x-www-form-urlencoded` of one credential (RFC 6749 §2.3.1). */
function formEncode(text: string): string {
  return new URLSearchParams({ x: text }).toString().slice(2);
}

async function readText(response: Response, limit: number): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
      if (size > limit) {
        await reader.cancel();
        break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes.subarray(0, limit));
}

/**
 * The token URL of the document's first `components.securitySchemes` entry of
 * type `oauth2` with a `clientCredentials` flow, resolved against the document's
 * URL (a relative one in a local document is refused), or undefined when
 * there is none.
 *
 * @example
 * ```ts
 * import { documentTokenUrl } from "./oauth.ts";
 * const doc = { components: { securitySchemes: { cc: { type: "oauth2",
 *   flows: { clientCredentials: { tokenUrl: "https://id.example.com/token", scopes: {} } } } } } };
 * const found = documentTokenUrl(doc, undefined);
 * console.assert(found !== undefined && "url" in found && found.url.href === "https://id.example.com/token");
 * ```
 */
export function documentTokenUrl(
  doc: Json,
  documentUrl: string | undefined,
): { readonly url: URL; readonly pointer: string } | {
  readonly error: string;
  readonly pointer: string;
} | undefined {
  const components = doc["components"];
  const schemes = isJson(components) ? components["securitySchemes"] : undefined;
  if (!isJson(schemes)) return undefined;
  for (const [name, scheme] of Object.entries(schemes)) {
    if (!isJson(scheme) || scheme["type"] !== "oauth2" || !isJson(scheme["flows"])) continue;
    const flow = scheme["flows"]["clientCredentials"];
    if (!isJson(flow)) continue;
    const pointer = `#/components/securitySchemes/${
      name.replaceAll("~", "~0").replaceAll("/", "~1")
    }/flows/clientCredentials/tokenUrl`;
    const text = flow["tokenUrl"];
    const url = typeof text === "string" ? URL.parse(text, documentUrl) : null;
    if (
      url === null || (url.protocol !== "http:" && url.protocol !== "https:") ||
      url.username !== "" || url.password !== ""
    ) {
      return {
        pointer,
        error: `tokenUrl ${
          JSON.stringify(text ?? null)
        } is not an absolute http(s) URL without credentials: set clientCredentials.tokenUrl`,
      };
    }
    url.hash = "";
    return { url, pointer };
  }
  return undefined;
}

function isJson(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Where `api`'s client credentials go: `clientCredentials.tokenUrl`, else the
 * document's ({@link documentTokenUrl}); undefined without client credentials.
 *
 * @throws {OpenApiError} naming the config key or the document's pointer.
 */
export function tokenUrlOf(
  api: OpenApiConfig,
  doc: Json,
  display: string,
  documentUrl: string | undefined,
): URL | undefined {
  const cc = api.clientCredentials;
  if (cc === undefined) return undefined;
  if (cc.tokenUrl !== undefined) return new URL(cc.tokenUrl);
  const found = documentTokenUrl(doc, documentUrl);
  if (found === undefined) {
    throw new OpenApiError(
      api.configFile,
      `openapi.${api.name}.clientCredentials.tokenUrl`,
      `required: ${display} has no oauth2 securityScheme with a clientCredentials flow`,
    );
  }
  if ("error" in found) throw new OpenApiError(display, found.pointer, found.error);
  return found.url;
}
