/**
 * `--record-args` (and the config's `"records": { "arguments": true }`): a call's arguments in
 * its `tool.call` record, so that a pipeline keeps a record of what its write tools were asked to
 * do. The configured secrets are redacted first with the OpenAPI source's redaction (every
 * spelling it recognises, `src/openapi/redact.ts`): the value of each OpenAPI
 * `auth.valueFromEnv` variable and each value of an MCP server's `env` and `headers`.
 *
 * @module
 */

import type { HostConfig } from "../config/mod.ts";
import { SecretRedactor } from "../openapi/redact.ts";
import { getEnv } from "../runtime/mod.ts";

/** Redacts a call's arguments for its `tool.call` record. */
export type ArgumentsRecorder = (
  args: Readonly<Record<string, unknown>>,
) => Record<string, unknown>;

/** Shorter secrets are not redacted (they would blank ordinary words); mirrors the redactor. */
const MIN_SECRET_CHARS = 4;

/** The secrets `config` hands to its sources (values only; unset variables are skipped). */
export function configuredSecrets(config: Pick<HostConfig, "mcpServers" | "openapi">): string[] {
  const secrets = new Set<string>();
  const add = (value: string | undefined) => {
    if (value !== undefined && value.length >= MIN_SECRET_CHARS) secrets.add(value);
  };
  for (const api of config.openapi) {
    if (api.auth === undefined) continue;
    try {
      add(getEnv(api.auth.valueFromEnv));
    } catch {
      // Not readable by the host: then no tool of this run gets it either.
    }
  }
  for (const server of config.mcpServers) {
    const values = server.transport.kind === "stdio"
      ? Object.values(server.transport.env)
      : Object.values(server.transport.headers);
    for (const value of values) add(value);
  }
  return [...secrets];
}

/**
 * The recorder of `secrets`: a deep copy of the arguments whose every string (keys included)
 * has each secret replaced by `[redacted]`.
 *
 * @example
 * ```ts
 * import { argumentsRecorder } from "./record_args.ts";
 * const record = argumentsRecorder(["s3cr3t-token"]);
 * const out = record({ note: "token is s3cr3t-token", n: 1 });
 * console.assert(out.note === "token is [redacted]" && out.n === 1);
 * ```
 */
export function argumentsRecorder(secrets: readonly string[]): ArgumentsRecorder {
  const redactors = secrets.map((secret) => new SecretRedactor(secret));
  const text = (value: string) => redactors.reduce((t, r) => r.redact(t), value);
  const copy = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return value.map(copy);
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), copy(v)]));
    }
    return value;
  };
  return (args) => copy(args) as Record<string, unknown>;
}

/**
 * The recorder of a run: when `--record-args` (`flag`) or the config's `records.arguments`
 * asks for one, over the config's secrets; else undefined (arguments are not recorded).
 */
export function recorderFor(
  flag: boolean,
  config: Pick<HostConfig, "mcpServers" | "openapi" | "recordArguments">,
): ArgumentsRecorder | undefined {
  if (!flag && config.recordArguments !== true) return undefined;
  return argumentsRecorder(configuredSecrets(config));
}
