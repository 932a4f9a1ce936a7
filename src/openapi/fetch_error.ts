/**
 * What an OpenAPI call says when its request got no response at all: the host and port it
 * tried and the reason, as an errno-style code where one is known (`ECONNREFUSED`,
 * `ENOTFOUND`, …) and the runtime's own words. Node's `fetch` says only `fetch failed` (the
 * reason is in `cause`); Deno's message names the OS error.
 *
 * @module
 */

/** Deno's (hyper's) wording of the common connect failures, and their errno names. */
const DENO_REASONS: readonly (readonly [RegExp, string])[] = [
  [/connection refused/i, "ECONNREFUSED"],
  [/connection reset/i, "ECONNRESET"],
  [/dns error|failed to lookup|name or service not known|no address associated/i, "ENOTFOUND"],
  [/timed out/i, "ETIMEDOUT"],
  [/network is unreachable/i, "ENETUNREACH"],
  [/no route to host/i, "EHOSTUNREACH"],
  [/certificate|tls|ssl/i, "TLS"],
];

const DEFAULT_PORTS: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/** `host:port` of `url`, the port spelled out also when it is the scheme's default. */
export function hostPort(url: URL): string {
  return `${url.hostname}:${url.port === "" ? DEFAULT_PORTS[url.protocol] ?? "" : url.port}`;
}

/**
 * `Request failed: 127.0.0.1:9 (ECONNREFUSED): …` for a `fetch` of `url` that threw `error`.
 *
 * @example
 * ```ts
 * import { fetchFailure } from "./fetch_error.ts";
 * const error = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }) });
 * const text = fetchFailure(error, new URL("http://127.0.0.1:9/api"));
 * console.assert(text === "Request failed: 127.0.0.1:9 (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9");
 * ```
 */
export function fetchFailure(error: unknown, url: URL): string {
  const messages: string[] = [];
  let code: string | undefined;
  // The error and its causes, outermost first (Node: TypeError "fetch failed" → the socket's).
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    const c = (e as { code?: unknown }).code;
    if (code === undefined && typeof c === "string" && c !== "") code = c;
    const message = e instanceof Error ? e.message : String(e);
    if (message !== "" && message !== "fetch failed") messages.push(message);
    e = e instanceof Error ? e.cause : undefined;
  }
  const text = messages.join(": ") || "fetch failed";
  code ??= DENO_REASONS.find(([pattern]) => pattern.test(text))?.[1];
  return `Request failed: ${hostPort(url)}${code === undefined ? "" : ` (${code})`}: ${text}`;
}
