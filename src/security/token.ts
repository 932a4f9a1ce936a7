/**
 * Bearer tokens of the host's local front doors (`inspect`, `mcp --http`): a fresh random
 * token, the `Authorization: Bearer` value of a request, and a comparison whose time does not
 * depend on where two tokens differ. One place, so both doors check a credential the same way.
 *
 * @example
 * ```ts
 * import { bearerToken, newToken, sameToken } from "./token.ts";
 * const token = newToken();
 * const request = new Request("http://127.0.0.1:1/", {
 *   headers: { authorization: `Bearer ${token}` },
 * });
 * if (!sameToken(bearerToken(request.headers) ?? "", token)) throw new Error("no match");
 * ```
 *
 * @module
 */

/** A new random token: 32 random bytes as 64 lowercase hex digits. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compare two strings in time independent of where they differ (the length is not secret). */
export function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The token of an `Authorization: Bearer <token>` header, or undefined when there is none. */
export function bearerToken(headers: Headers): string | undefined {
  return headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
}
