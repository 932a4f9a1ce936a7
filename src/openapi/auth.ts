/**
 * The auth of one OpenAPI call: the `auth` header read from the environment,
 * or a bearer token of client credentials (`oauth.ts`).
 *
 * @module
 */

import { getEnv } from "../runtime/mod.ts";
import { ExternalToolError } from "../tool/external.ts";
import type { OpenApiConfig } from "./config.ts";
import type { HttpExchange } from "./http.ts";
import type { ClientCredentialsTokens } from "./oauth.ts";
import { hasHeaderBreak } from "../text/control.ts";

/** The `auth` header of `api`, its value read now (a rotated token is used by the next call). */
export function headerAuth(api: OpenApiConfig): HttpExchange["auth"] {
  if (api.auth === undefined) return undefined;
  let secret: string | undefined;
  try {
    secret = readEnv(api.auth.valueFromEnv);
  } catch {
    // Deno's NotCapable: the host was started without --allow-env for it.
    throw new ExternalToolError(
      "tool_failed",
      `Authentication is not configured: the tool host may not read environment variable ${api.auth.valueFromEnv} (start it with --allow-env=…,${api.auth.valueFromEnv})`,
    );
  }
  if (secret === undefined || secret === "") {
    throw new ExternalToolError(
      "tool_failed",
      `Authentication is not configured: environment variable ${api.auth.valueFromEnv} is not set`,
    );
  }
  if (hasHeaderBreak(secret)) {
    throw new ExternalToolError(
      "tool_failed",
      `Authentication is not configured: environment variable ${api.auth.valueFromEnv} holds CR, LF or NUL`,
    );
  }
  return { header: api.auth.header, value: `${api.auth.prefix}${secret}`, secret };
}

/** `Authorization: Bearer <token>` with a client credentials token. */
export async function bearer(
  tokens: ClientCredentialsTokens,
): Promise<NonNullable<HttpExchange["auth"]>> {
  const token = await tokens.token();
  return { header: "Authorization", value: `Bearer ${token}`, secret: token };
}

/** An environment variable of the host (the runtime's `getEnv`), or undefined. */
export function readEnv(name: string): string | undefined {
  return getEnv(name);
}
