/**
 * The inspector's request gate, learned from the MCP Inspector's
 * CVE-2025-49596 (a local dev server any web page could drive): every
 * request must carry the session token (`?token=` or
 * `Authorization: Bearer`), name the bound address in `Host` (a DNS
 * rebinding attack names its own host), and, when it has an `Origin` (or a
 * `Sec-Fetch-Site`), come from the inspector's own origin.
 *
 * @module
 */

import { bearerToken, sameToken } from "../security/token.ts";

/** A new random session token (shared with `mcp --http`: `src/security/token.ts`). */
export { newToken } from "../security/token.ts";

/** What the gate checks against. */
export interface GateOptions {
  /** The session token (hex). */
  readonly token: string;
  /** The bound port. */
  readonly port: number;
}

/** Why a request was refused (status 401/403/421 with this text). */
export interface Refusal {
  /** HTTP status. */
  readonly status: number;
  /** Reason shown in the response body. */
  readonly reason: string;
}

/** The `Host` values of the bound address. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/**
 * Check one request; returns null when it may pass, else the refusal.
 *
 * @example
 * ```ts
 * import { checkRequest } from "./security.ts";
 * const gate = { token: "t0k", port: 8123 };
 * const ok = new Request("http://127.0.0.1:8123/api/tools?token=t0k");
 * console.assert(checkRequest(ok, gate) === null);
 * const foreign = new Request("http://127.0.0.1:8123/api/tools?token=t0k", {
 *   headers: { origin: "https://evil.example" },
 * });
 * console.assert(checkRequest(foreign, gate)?.status === 403);
 * ```
 */
export function checkRequest(request: Request, gate: GateOptions): Refusal | null {
  const url = new URL(request.url);
  // Deno's Request carries the Host header in the URL; a raw Host header wins when present.
  const host = request.headers.get("host") ?? url.host;
  if (!allowedHosts(gate.port).includes(host.toLowerCase())) {
    return { status: 421, reason: `Host not allowed: ${host.slice(0, 100)}` };
  }
  const origin = request.headers.get("origin");
  if (origin !== null) {
    const allowed = allowedHosts(gate.port).map((h) => `http://${h}`);
    if (!allowed.includes(origin.toLowerCase())) {
      return { status: 403, reason: `Origin not allowed: ${origin.slice(0, 100)}` };
    }
  }
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") {
    return { status: 403, reason: `Cross-site request refused (Sec-Fetch-Site: ${site})` };
  }
  const token = bearerToken(request.headers) ?? url.searchParams.get("token");
  if (token === null || !sameToken(token, gate.token)) {
    return { status: 401, reason: "Missing or wrong session token" };
  }
  return null;
}
