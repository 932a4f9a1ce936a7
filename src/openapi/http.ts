/**
 * One HTTP exchange with the safety rules of an OpenAPI tool: a timeout, the
 * caller's abort signal, redirects followed only while they stay under the
 * base URL (another host or path is refused, never fetched), the response
 * body read up to a bound, and the secret redacted from every text that comes
 * back, in every spelling `redact.ts` knows (raw, percent-encoded, JSON-escaped,
 * base64), before any cut. Runs inside the sandboxed child (`_http_tool.ts`), whose network
 * permission is only the base URL's host and port, or inline where there is
 * no process isolation (Node.js).
 *
 * Outcomes, never thrown (except the caller's own abort):
 * - 2xx JSON or text → `{ ok: true, text }` (the body; `HTTP 204 No Content` when empty);
 * - another status → `http_<status>` with the status line and a bounded body excerpt;
 * - no answer in time → `timeout`; a network error, a redirect refused, a body
 *   over the bound or not text → `tool_failed` / `result_too_large`.
 *
 * @module
 */

import { fetchFailure } from "./fetch_error.ts";
import { SecretRedactor } from "./redact.ts";
import { isUnderBase } from "./request.ts";

/** What the child is asked to do (plain JSON). */
export interface HttpExchange {
  /** Upper-case method. */
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  /** Headers to send (the auth header is added from {@link HttpExchange.auth}). */
  readonly headers: readonly (readonly [string, string])[];
  /** Body text. */
  readonly body?: string;
  /** The base URL every request and redirect must stay under. */
  readonly baseUrl: string;
  /** Give up after this many ms (`timeout`). */
  readonly timeoutMs: number;
  /** Largest response body accepted, bytes (`result_too_large` over it). */
  readonly maxBytes: number;
  /**
   * The auth header and its whole value (prefix included), read by the host from the
   * environment at call time; redacted from every text that comes back.
   */
  readonly auth?: { readonly header: string; readonly value: string; readonly secret: string };
}

/** How an exchange ended. */
export type HttpOutcome =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** Redirects followed at most (each must stay under the base URL). */
export const MAX_REDIRECTS = 5;

/**
 * Bytes of a non-2xx body shown in the error text (read further, by the secret's
 * longest spelling, so the cut comes after redaction and cannot split a secret).
 */
export const ERROR_EXCERPT_BYTES = 1_024;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Run `exchange`. Rejects only with `signal`'s reason when the caller aborts.
 *
 * @example
 * ```ts ignore
 * const outcome = await performExchange({ method: "GET", url: "http://127.0.0.1:8080/api/pets",
 *   headers: [], baseUrl: "http://127.0.0.1:8080/api", timeoutMs: 10_000, maxBytes: 1_048_576 },
 *   AbortSignal.timeout(20_000));
 * ```
 */
export async function performExchange(
  exchange: HttpExchange,
  signal: AbortSignal,
): Promise<HttpOutcome> {
  const redactor = new SecretRedactor(exchange.auth?.secret);
  const redact = (text: string) => redactor.redact(text);
  const headers = new Headers();
  try {
    for (const [name, value] of exchange.headers) headers.append(name, value);
    if (exchange.auth !== undefined) {
      headers.set(exchange.auth.header, exchange.auth.value);
    }
  } catch (error) {
    return failed("invalid_arguments", redact(`Invalid arguments: ${messageOf(error)}`));
  }
  const timer = AbortSignal.timeout(exchange.timeoutMs);
  const both = AbortSignal.any([signal, timer]);
  const base = new URL(exchange.baseUrl);
  let url = new URL(exchange.url);
  let method = exchange.method;
  let body = exchange.body;
  try {
    for (let hop = 0;; hop++) {
      if (!isUnderBase(url, base)) {
        return failed("tool_failed", `Request URL is outside the base URL: ${url.origin}`);
      }
      const response = await fetch(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: "manual",
        signal: both,
      });
      if (REDIRECTS.has(response.status)) {
        await response.body?.cancel();
        const location = response.headers.get("location");
        const next = location === null ? undefined : URL.parse(location, url) ?? undefined;
        if (next === undefined || !isUnderBase(next, base) || hop >= MAX_REDIRECTS) {
          const why = next === undefined
            ? "without a valid Location"
            : hop >= MAX_REDIRECTS
            ? `more than ${MAX_REDIRECTS} times`
            : next.origin === base.origin
            ? "to a path outside the base URL (refused)"
            : `to another host (refused): ${next.origin}`;
          return failed(
            `http_${response.status}`,
            redact(`HTTP ${response.status} ${response.statusText}: redirected ${why}`),
          );
        }
        if (
          response.status === 303 || (response.status !== 307 && response.status !== 308 &&
            method === "POST")
        ) {
          method = method === "HEAD" ? "HEAD" : "GET";
          body = undefined;
          headers.delete("content-type");
        }
        url = next;
        continue;
      }
      return await answer(response, exchange.maxBytes, redactor);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (timer.aborted) {
      return failed("timeout", `No complete response within ${exchange.timeoutMs} ms`);
    }
    // Name where it went and why (ECONNREFUSED, ENOTFOUND, …), not only "fetch failed".
    return failed("tool_failed", redact(fetchFailure(error, url)));
  }
}

async function answer(
  response: Response,
  maxBytes: number,
  redactor: SecretRedactor,
): Promise<HttpOutcome> {
  const status = redactor.redact(
    `HTTP ${response.status}${response.statusText === "" ? "" : ` ${response.statusText}`}`,
  );
  const type = (response.headers.get("content-type") ?? "").toLowerCase();
  if (response.status < 200 || response.status > 299) {
    // Redact first, then cut: read past the excerpt by the secret's longest spelling.
    const { bytes, over } = await readBounded(
      response,
      ERROR_EXCERPT_BYTES + redactor.marginBytes,
    );
    const excerpt = redactor.excerpt(new TextDecoder().decode(bytes).trim(), {
      maxBytes: ERROR_EXCERPT_BYTES,
      complete: !over,
    });
    return failed(`http_${response.status}`, excerpt === "" ? status : `${status}: ${excerpt}`);
  }
  const { bytes, over } = await readBounded(response, maxBytes);
  if (over) {
    return failed(
      "result_too_large",
      `${status}: the response body is larger than ${maxBytes} bytes`,
    );
  }
  if (bytes.length === 0) return { ok: true, text: `${status} (no content)` };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return failed(
      "tool_failed",
      `${status}: the response is not JSON or text (${
        type || "no content type"
      }, ${bytes.length} bytes)`,
    );
  }
  const textual = type === "" ||
    /json|^text\/|xml|yaml|javascript|x-www-form-urlencoded/.test(type);
  if (!textual) {
    return failed(
      "tool_failed",
      `${status}: the response is not JSON or text (${type}, ${bytes.length} bytes)`,
    );
  }
  return { ok: true, text: redactor.redact(text) };
}

/** The body's first `limit` bytes, and whether there was more (the rest is not read). */
async function readBounded(
  response: Response,
  limit: number,
): Promise<{ bytes: Uint8Array; over: boolean }> {
  if (response.body === null) return { bytes: new Uint8Array(), over: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.length > limit) {
        chunks.push(value.subarray(0, limit - size));
        size = limit;
        await reader.cancel();
        return { bytes: concat(chunks, size), over: true };
      }
      chunks.push(value);
      size += value.length;
    }
  } finally {
    reader.releaseLock();
  }
  return { bytes: concat(chunks, size), over: false };
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * `text` with every spelling of `secret` (raw, percent-encoded, JSON-escaped,
 * base64: {@link SecretRedactor}) replaced by `[redacted]`.
 *
 * @example
 * ```ts
 * import { redactSecret } from "./http.ts";
 * console.assert(redactSecret("token s3cret!", "s3cret") === "token [redacted]!");
 * console.assert(redactSecret("token s3cret%21", "s3cret!") === "token [redacted]");
 * ```
 */
export function redactSecret(text: string, secret: string | undefined): string {
  return new SecretRedactor(secret).redact(text);
}

function failed(code: string, message: string): HttpOutcome {
  return { ok: false, code, message };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
