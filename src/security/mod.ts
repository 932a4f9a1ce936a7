/**
 * Credentials of the host's local front doors (`inspect`, `mcp --http`): bearer tokens, made and
 * checked one way for both (`token.ts`). Imports nothing of the host: any layer may use it.
 *
 * @example
 * ```ts
 * import { newToken, sameToken } from "./mod.ts";
 * const token = newToken();
 * if (!sameToken(token, token) || sameToken(token, newToken())) throw new Error("compare");
 * ```
 *
 * @module
 */

export { bearerToken, newToken, sameToken } from "./token.ts";
