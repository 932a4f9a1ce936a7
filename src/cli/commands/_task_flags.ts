/**
 * `tools --task-flags`: the `deno run` flags of a project's tasks (the ones
 * `init` writes), derived from its config so that no task line needs a hand
 * edit: the host's own grants (read, write, run, a few environment variables,
 * the loopback network for `inspect` and `mcp --http`) plus what the config
 * names — each `${VAR}` it expands, each OpenAPI `auth.valueFromEnv` and
 * `clientCredentials` variable (env), and the host and port of each HTTP MCP
 * server, OpenAPI `spec` URL and configured `clientCredentials.tokenUrl` (net).
 *
 * It never fails: a config that cannot be read or parsed yields the base
 * flags (and what was learned before the fault), so the command the task then
 * runs reports the config error itself, precisely.
 *
 * @module
 */

import { type EnvGetter, type HostConfig, loadConfig } from "../../config/mod.ts";
import { currentDir, getEnvIfGranted } from "../../runtime/mod.ts";
import type { ConfigArgs } from "../../run/command_options.ts";

/**
 * Environment variables every task grants the host: the backend choice, colours, and where the
 * approvals of project configs are kept (`trust`: HOME, XDG_CONFIG_HOME, APPDATA,
 * MAGI_TOOLS_TRUST_CONFIG), and how the user runs the CLI, for usage hints
 * (MAGI_TOOLS_INVOCATION, set by the tasks).
 */
export const TASK_ENV: readonly string[] = Object.freeze([
  "MAGI_CODE_AGENT",
  "PATH",
  "NO_COLOR",
  "FORCE_COLOR",
  "HOME",
  "XDG_CONFIG_HOME",
  "APPDATA",
  "MAGI_TOOLS_TRUST_CONFIG",
  "MAGI_TOOLS_INVOCATION",
]);

/** The V8 flag of the long-running host: per-call garbage dies young (docs/cli.md). */
export const YOUNG_GENERATION = "--v8-flags=--max-semi-space-size=4";

/** What a config makes the host read and reach. */
export interface ConfigGrants {
  /** Environment variables the config names. */
  readonly env: readonly string[];
  /** `host:port` the host connects to (HTTP MCP servers, OpenAPI documents by URL). */
  readonly net: readonly string[];
}

function hostPort(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
    const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
    return `${parsed.hostname}:${port}`;
  } catch {
    return null;
  }
}

/** The grants `config` needs beyond the base (`envNames`: the variables its parse read). */
export function configGrants(config: HostConfig, envNames: Iterable<string> = []): ConfigGrants {
  const env = new Set(envNames);
  const net = new Set<string>();
  for (const server of config.mcpServers) {
    if (!server.enabled || server.transport.kind !== "http") continue;
    const target = hostPort(server.transport.url);
    if (target !== null) net.add(target);
    const cc = server.transport.clientCredentials;
    if (cc !== undefined) {
      env.add(cc.clientIdFromEnv).add(cc.clientSecretFromEnv);
      const token = hostPort(cc.tokenUrl);
      if (token !== null) net.add(token);
    }
  }
  for (const api of config.openapi) {
    if (api.auth !== undefined) env.add(api.auth.valueFromEnv);
    const cc = api.clientCredentials;
    if (cc !== undefined) {
      env.add(cc.clientIdFromEnv).add(cc.clientSecretFromEnv);
      // The host asks the token URL itself (one decided by the document: add it yourself).
      const token = cc.tokenUrl === undefined ? null : hostPort(cc.tokenUrl);
      if (token !== null) net.add(token);
    }
    const target = hostPort(api.specLocation);
    if (target !== null) net.add(target);
  }
  return { env: [...env], net: [...net] };
}

/**
 * The task flags for `grants`: `--no-prompt`, read, write, run, env
 * ({@link TASK_ENV} and the config's), net (`127.0.0.1` and the config's),
 * and {@link YOUNG_GENERATION}.
 *
 * @example
 * ```ts
 * import { taskFlags } from "./_task_flags.ts";
 * const flags = taskFlags({ env: ["BOOKS_KEY"], net: [] });
 * console.assert(flags.some((flag) => flag.startsWith("--allow-env=") && flag.endsWith(",BOOKS_KEY")));
 * ```
 */
export function taskFlags(grants: ConfigGrants): string[] {
  // Deno's lists are comma-separated: a name or host with a comma cannot be granted.
  const env = [...new Set([...TASK_ENV, ...grants.env])].filter((name) => !name.includes(","));
  const net = [...new Set(["127.0.0.1", ...grants.net])].filter((host) => !host.includes(","));
  return [
    "--no-prompt",
    "--allow-read",
    "--allow-write",
    "--allow-run",
    `--allow-env=${env.join(",")}`,
    `--allow-net=${net.join(",")}`,
    YOUNG_GENERATION,
  ];
}

/** The task flags for the config `args` name (or `magi-tools.jsonc` in the working directory). */
export async function configTaskFlags(args: ConfigArgs): Promise<string[]> {
  const read = new Set<string>();
  const env: EnvGetter = (name) => {
    read.add(name);
    return getEnvIfGranted(name);
  };
  let config: HostConfig | null = null;
  try {
    config = await loadConfig({ ...args, cwd: currentDir(), env });
  } catch {
    // Reported by the command the task runs; the base flags (and what was read) still serve.
  }
  return taskFlags(
    config === null ? { env: [...read], net: [] } : configGrants(config, read),
  );
}
