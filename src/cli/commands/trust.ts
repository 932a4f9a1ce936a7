/**
 * `trust [FILE]`, `trust --list`, `trust --revoke [FILE]`: the user's
 * approval of a project config (`src/config/trust.ts`), kept in the trust
 * store under the per-user config directory, never in the project. `trust`
 * records the SHA-256 of the file's current content for its path, and where
 * each OpenAPI source with `auth` sends its secret (its base URL, read from
 * its document when the config has no `baseUrl`), and prints what that
 * approves and where every secret goes; a later change of either needs
 * `trust` again.
 *
 * @module
 */

import {
  ConfigError,
  configKey,
  configNeeds,
  describeDestinations,
  describeNeeds,
  hashConfigText,
  needsApproval,
  type OpenApiConfig,
  parseJsonc,
  parseOpenApi,
  readTrustStore,
  secretDestinations,
  type TrustRecords,
  trustStorePath,
  writeTrustStore,
} from "../../config/mod.ts";
import { loadOpenApi } from "../../sources/features.ts";
import { readTextFile, terminalText, writeStderrLine, writeStdout } from "../../runtime/mod.ts";
import type { TrustArgs } from "../args/mod.ts";
import { EXIT, exitCode } from "../../run/exit_codes.ts";
import { isHostError } from "../../errors/mod.ts";

/** Run `trust`; resolves with the exit code (2: no store, unreadable file or store). */
export async function trustCommand(args: TrustArgs): Promise<number> {
  try {
    const store = trustStorePath();
    if (store === null) {
      throw new ConfigError(
        "Cannot find the trust store: the host may not read HOME or XDG_CONFIG_HOME (APPDATA on Windows): grant --allow-env for them",
      );
    }
    const records = await readTrustStore(store);
    switch (args.action) {
      case "list":
        await print(await listing(records));
        return EXIT.ok;
      case "revoke":
        return await revoke(args.file, store, records);
      case "trust":
        return await trust(args.file, store, records);
    }
  } catch (error) {
    if (isHostError(error, "config", "feature_unavailable")) {
      writeStderrLine(`magi-tools: ${error.message}`);
      return exitCode(error.code);
    }
    throw error;
  }
}

async function trust(file: string, store: string, records: TrustRecords): Promise<number> {
  const text = await readConfig(file);
  const value = parseJsonc(text, file);
  const needs = configNeeds(value);
  const destinations = secretDestinations(value);
  const resolved = await resolveDestinations(file, value);
  const key = await configKey(file);
  const sha256 = await hashConfigText(text);
  await writeTrustStore(store, {
    ...records,
    [key]: {
      sha256,
      trustedAt: new Date().toISOString(),
      ...(Object.keys(resolved).length === 0 ? {} : { destinations: resolved }),
    },
  });
  const what = needsApproval(needs)
    ? ["It may now:", ...describeNeeds(needs)]
    : ["It starts no command and reads no variable: it needed no approval"];
  const where = destinations.length === 0
    ? []
    : ["Its secrets go to:", ...describeDestinations(destinations, resolved)];
  await print([
    `Trusted ${key} (sha256 ${sha256.slice(0, 12)}…)`,
    ...what,
    ...where,
    `Store: ${store}`,
  ]);
  return EXIT.ok;
}

/**
 * Where each `openapi` entry with `auth` or `clientCredentials` of the config
 * `value` read from `file` sends its secret (`openapi.<name>` → base URL;
 * `openapi.<name>.tokenUrl` → token URL), its document read when the config
 * has no `baseUrl` (or no `clientCredentials.tokenUrl`). A destination that cannot be found is an
 * error: nothing is trusted without knowing where its secrets go.
 */
async function resolveDestinations(
  file: string,
  value: unknown,
): Promise<Record<string, string>> {
  const section = typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)["openapi"]
    : undefined;
  if (section === undefined) return {};
  const apis: OpenApiConfig[] = parseOpenApi(section, { file, path: "openapi" })
    .filter((api) => api.auth !== undefined || api.clientCredentials !== undefined);
  const resolved: Record<string, string> = {};
  for (const api of apis) {
    // A baseUrl (and tokenUrl) in the config decides it (its hash covers it): no document read.
    const ccUrl = api.clientCredentials?.tokenUrl;
    if (api.baseUrl !== undefined && (api.clientCredentials === undefined || ccUrl !== undefined)) {
      resolved[`openapi.${api.name}`] = new URL(api.baseUrl).href;
      if (ccUrl !== undefined) resolved[`openapi.${api.name}.tokenUrl`] = new URL(ccUrl).href;
      continue;
    }
    const { openApiDestination } = await loadOpenApi();
    try {
      const found = await openApiDestination(api, {});
      resolved[`openapi.${api.name}`] = found.baseUrl;
      if (found.tokenUrl !== undefined) resolved[`openapi.${api.name}.tokenUrl`] = found.tokenUrl;
    } catch (error) {
      if (!isHostError(error, "config")) throw error;
      throw new ConfigError(
        `Cannot find where openapi.${api.name} of ${file} sends its secret: ${error.message}`,
      );
    }
  }
  return resolved;
}

async function revoke(file: string, store: string, records: TrustRecords): Promise<number> {
  const key = await configKey(file);
  if (records[key] === undefined) {
    await print([`Not trusted, nothing to revoke: ${key}`]);
    return EXIT.ok;
  }
  const rest = { ...records };
  delete rest[key];
  await writeTrustStore(store, rest);
  await print([`Revoked: ${key}`]);
  return EXIT.ok;
}

/** One line per trusted config: `<state>  <path>`; state `ok`, `changed` or `missing`. */
async function listing(records: TrustRecords): Promise<string[]> {
  const lines: string[] = [];
  for (const [key, record] of Object.entries(records).sort(([a], [b]) => a.localeCompare(b))) {
    let state: string;
    try {
      state = await hashConfigText(await readTextFile(key)) === record.sha256 ? "ok" : "changed";
    } catch {
      state = "missing";
    }
    lines.push(`${state.padEnd(8)}${record.trustedAt.padEnd(26)}${key}`);
    for (const [source, to] of Object.entries(record.destinations ?? {})) {
      const what = source.endsWith(".tokenUrl")
        ? `${source.slice(0, -".tokenUrl".length)} sends its client credentials to`
        : `${source} sends its secret to`;
      lines.push(`${" ".repeat(34)}${what} ${to}`);
    }
  }
  return lines.length === 0 ? ["No trusted configs"] : lines;
}

async function readConfig(file: string): Promise<string> {
  try {
    return await readTextFile(file);
  } catch (error) {
    if ((error as { name?: string }).name === "NotFound") {
      throw new ConfigError(`Config file not found: ${file}`);
    }
    throw new ConfigError(`Cannot read config file: ${file}: ${(error as Error).message}`);
  }
}

/** Write `lines`; a config's commands and paths are the project's text: no raw controls. */
async function print(lines: readonly string[]): Promise<void> {
  await writeStdout(new TextEncoder().encode(terminalText(lines.join("\n") + "\n")));
}
