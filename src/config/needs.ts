/**
 * What a config would do on the user's machine beyond reading itself: the
 * commands it starts (stdio MCP servers) and the environment variables it
 * reads (`${VAR}` in an MCP server's `command`, `args`, `env`, `cwd`, `url`
 * or `headers`; an OpenAPI entry's `auth.valueFromEnv`; an OpenAPI entry's or
 * HTTP MCP server's `clientCredentials.clientIdFromEnv` and `clientSecretFromEnv`). Found in the
 * JSONC value alone, before any key is checked or anything expanded, so the
 * approval of a project config (`trust.ts`) is decided before the
 * environment is read or a process started.
 *
 * Every entry counts, `enabled: false` ones too: the parser expands their
 * `${VAR}`s as well, and the approval is of the file, not of an entry.
 *
 * @example
 * ```ts
 * import { configNeeds } from "./needs.ts";
 * const needs = configNeeds({
 *   mcpServers: { fs: { command: "fs-server", args: ["--root", "${HOME}"] } },
 * });
 * console.assert(needs.commands[0]?.server === "fs" && needs.variables[0]?.name === "HOME");
 * ```
 *
 * @module
 */

import { isObject } from "./_check.ts";
import { EXPANDED_KEYS, VAR_REFERENCE } from "./mcp_servers.ts";

/** A command a config starts: one stdio MCP server. */
export interface NeededCommand {
  /** The `mcpServers` key. */
  readonly server: string;
  /** `command` as written (unexpanded; JSON text when it is not a string). */
  readonly command: string;
  /** `args` as written (the strings among them). */
  readonly args: readonly string[];
}

/** An environment variable a config reads, and where. */
export interface NeededVariable {
  /** The variable's name. */
  readonly name: string;
  /** The key path, e.g. `mcpServers.api.headers.Authorization`. */
  readonly at: string;
}

/** A sign-in of the user a config uses: an HTTP MCP server with `oauth`. */
export interface NeededSignIn {
  /** The `mcpServers` key. */
  readonly server: string;
  /** `url` as written. */
  readonly url: string;
}

/** Everything in a config that needs approval when the config is a project's own. */
export interface ConfigNeeds {
  /** Stdio MCP servers, in file order. */
  readonly commands: readonly NeededCommand[];
  /** Variables read, in file order. */
  readonly variables: readonly NeededVariable[];
  /** The user's stored sign-ins it sends (`magi-tools login`), in file order. */
  readonly signIns?: readonly NeededSignIn[];
  /** Its `approvals` rules that allow write tools without asking (`allow=file_ticket`). */
  readonly allows?: readonly string[];
}

/** Whether `needs` lists anything (a config without commands or variables needs no approval). */
export function needsApproval(needs: ConfigNeeds): boolean {
  return needs.commands.length > 0 || needs.variables.length > 0 ||
    (needs.signIns?.length ?? 0) > 0 || (needs.allows?.length ?? 0) > 0;
}

/** The commands and variables of a config's JSONC `value` (anything not an object: none). */
export function configNeeds(value: unknown): ConfigNeeds {
  const commands: NeededCommand[] = [];
  const variables: NeededVariable[] = [];
  const signIns: NeededSignIn[] = [];
  if (!isObject(value)) return { commands, variables };
  const servers = value["mcpServers"];
  if (isObject(servers)) {
    for (const [name, entry] of Object.entries(servers)) {
      if (!isObject(entry)) continue;
      if (entry["command"] !== undefined) {
        const command = entry["command"];
        const args = Array.isArray(entry["args"]) ? entry["args"] : [];
        commands.push({
          server: name,
          command: typeof command === "string" ? command : JSON.stringify(command),
          args: args.filter((arg): arg is string => typeof arg === "string"),
        });
      }
      for (const key of EXPANDED_KEYS) {
        collectVariables(entry[key], `mcpServers.${name}.${key}`, variables);
      }
      collectClientCredentials(entry, `mcpServers.${name}`, variables);
      if (entry["oauth"] !== undefined) {
        signIns.push({ server: name, url: typeof entry["url"] === "string" ? entry["url"] : "" });
      }
    }
  }
  const apis = value["openapi"];
  if (isObject(apis)) {
    for (const [name, entry] of Object.entries(apis)) {
      const auth = isObject(entry) ? entry["auth"] : undefined;
      const variable = isObject(auth) ? auth["valueFromEnv"] : undefined;
      if (typeof variable === "string") {
        variables.push({ name: variable, at: `openapi.${name}.auth.valueFromEnv` });
      }
      if (isObject(entry)) collectClientCredentials(entry, `openapi.${name}`, variables);
    }
  }
  const allows = allowRules(value["approvals"]);
  return {
    commands,
    variables,
    ...(signIns.length === 0 ? {} : { signIns }),
    ...(allows.length === 0 ? {} : { allows }),
  };
}

/** The `approvals` entries with `"decision": "allow"`, as flags write them (as written). */
function allowRules(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((rule) => isObject(rule) && rule["decision"] === "allow").map((rule) => {
    const { tool, source } = rule as Record<string, unknown>;
    const text = (part: unknown) => typeof part === "string" ? part : JSON.stringify(part);
    const target = source === undefined
      ? tool === undefined ? "" : text(tool)
      : tool === undefined
      ? text(source)
      : `${text(source)}/${text(tool)}`;
    return target === "" ? "allow" : `allow=${target}`;
  });
}

/** The keys of an OpenAPI entry's `clientCredentials` that name variables. */
const CLIENT_CREDENTIAL_KEYS = ["clientIdFromEnv", "clientSecretFromEnv"] as const;

/** Add the variables an entry's `clientCredentials` names (`<at>.clientCredentials.<key>`). */
function collectClientCredentials(
  entry: Record<string, unknown>,
  at: string,
  into: NeededVariable[],
): void {
  const cc = entry["clientCredentials"];
  for (const key of CLIENT_CREDENTIAL_KEYS) {
    const value = isObject(cc) ? cc[key] : undefined;
    if (typeof value === "string") into.push({ name: value, at: `${at}.clientCredentials.${key}` });
  }
}

/** Add the `${VAR}`s of every string in `value` (array items and object values, not keys). */
function collectVariables(value: unknown, at: string, into: NeededVariable[]): void {
  if (typeof value === "string") {
    for (const match of value.matchAll(new RegExp(VAR_REFERENCE.source, "g"))) {
      into.push({ name: match[1]!, at });
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => collectVariables(item, `${at}[${index}]`, into));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) collectVariables(item, `${at}.${key}`, into);
  }
}

/**
 * Where the secrets of one source go. The config's text decides it (a
 * `baseUrl`, an MCP server's `url` or `command`), except for an OpenAPI source
 * with `auth` and no `baseUrl`: there its document's first `servers` entry
 * does, which the config's hash does not cover (`to` is null until resolved).
 * An OpenAPI source with `clientCredentials` has a second destination,
 * `openapi.<name>.tokenUrl`, where the client ID and secret go (decided by the
 * document's oauth2 flow when the config has no `tokenUrl`).
 */
export interface SecretDestination {
  /** The source's key path: `openapi.<name>`, `openapi.<name>.tokenUrl` or `mcpServers.<name>`. */
  readonly source: string;
  /** The variables whose values it is sent (names, in file order). */
  readonly variables: readonly string[];
  /** Where they go, as written in the config; null when the OpenAPI document decides it. */
  readonly to: string | null;
  /** What decides it: a key path of the config, or the document's servers entry. */
  readonly decidedBy: string;
}

/**
 * The destination of every source of a config's JSONC `value` that is sent a
 * variable's value, in file order (OpenAPI sources after MCP servers).
 *
 * @example
 * ```ts
 * import { secretDestinations } from "./needs.ts";
 * const [api] = secretDestinations({ openapi: { t: {
 *   spec: "t.yaml", auth: { header: "Authorization", valueFromEnv: "T" } } } });
 * console.assert(api?.to === null && api.decidedBy === "the first servers entry of t.yaml");
 * ```
 */
export function secretDestinations(value: unknown): SecretDestination[] {
  const found: SecretDestination[] = [];
  if (!isObject(value)) return found;
  const servers = value["mcpServers"];
  if (isObject(servers)) {
    for (const [name, entry] of Object.entries(servers)) {
      if (!isObject(entry)) continue;
      const variables: NeededVariable[] = [];
      for (const key of EXPANDED_KEYS) collectVariables(entry[key], key, variables);
      collectClientCredentials(entry, "", variables);
      if (variables.length === 0) continue;
      const url = typeof entry["url"] === "string" ? entry["url"] : undefined;
      const command = typeof entry["command"] === "string" ? entry["command"] : undefined;
      const names = [...new Set(variables.map((variable) => variable.name))];
      found.push({
        source: `mcpServers.${name}`,
        variables: names,
        to: url ?? (command === undefined ? "(nothing)" : `the command ${command}`),
        decidedBy: `mcpServers.${name}.${url === undefined ? "command" : "url"}`,
      });
      const cc = entry["clientCredentials"];
      if (isObject(cc) && typeof cc["tokenUrl"] === "string") {
        // The client ID and secret go to the token URL; the token they buy goes to the server.
        found.push({
          source: `mcpServers.${name}.tokenUrl`,
          variables: CLIENT_CREDENTIAL_KEYS.map((key) => cc[key]).filter((v) =>
            typeof v === "string"
          ),
          to: cc["tokenUrl"],
          decidedBy: `mcpServers.${name}.clientCredentials.tokenUrl`,
        });
      }
    }
  }
  const apis = value["openapi"];
  if (isObject(apis)) {
    for (const [name, entry] of Object.entries(apis)) {
      if (!isObject(entry)) continue;
      const auth = entry["auth"];
      const cc = entry["clientCredentials"];
      const variables = isObject(auth) && typeof auth["valueFromEnv"] === "string"
        ? [auth["valueFromEnv"]]
        : isObject(cc)
        ? CLIENT_CREDENTIAL_KEYS.map((key) => cc[key]).filter((v) => typeof v === "string")
        : [];
      if (variables.length === 0) continue;
      const baseUrl = typeof entry["baseUrl"] === "string" ? entry["baseUrl"] : undefined;
      const spec = String(entry["spec"]);
      found.push({
        source: `openapi.${name}`,
        variables,
        to: baseUrl ?? null,
        decidedBy: baseUrl === undefined
          ? `the first servers entry of ${spec}`
          : `openapi.${name}.baseUrl`,
      });
      if (isObject(cc)) {
        // The client ID and secret go to the token URL; only the token they buy goes to the API.
        const tokenUrl = typeof cc["tokenUrl"] === "string" ? cc["tokenUrl"] : undefined;
        found.push({
          source: `openapi.${name}.tokenUrl`,
          variables,
          to: tokenUrl ?? null,
          decidedBy: tokenUrl === undefined
            ? `the oauth2 clientCredentials flow of ${spec}`
            : `openapi.${name}.clientCredentials.tokenUrl`,
        });
      }
    }
  }
  return found;
}
