/**
 * The environment of a tool process: only what the tool declared and what the
 * runtime itself needs. A tool process (and every program it starts, which
 * inherits it) never sees the host's other variables, so a tool allowed to run
 * one program cannot read the host's tokens through it (`git -c alias.x='!env'`).
 *
 * What every tool process gets, when the host has it:
 * - `PATH`: Deno and the kernel layer find the programs of `run` on it;
 * - `HOME`, `XDG_CACHE_HOME`, `DENO_DIR`, `NPM_CONFIG_REGISTRY`: where Deno's cache is (the
 *   tool's compiled module graph and npm packages) and where npm packages come from, and the
 *   home directory programs such as `git` expect;
 * - `TMPDIR`: where temporary files go;
 * - `LANG`, `LC_ALL`, `LC_CTYPE`, `TZ`: text encoding and the time zone;
 * - `DENO_TLS_CA_STORE` and the CA certificate variables (`DENO_CERT`, `SSL_CERT_FILE`, …):
 *   which certificates TLS trusts;
 * - with a `net` permission, the proxy variables (`HTTPS_PROXY`, `NO_PROXY`, …): the only
 *   way out of some networks;
 * - `NO_COLOR=1`.
 *
 * Then each variable of the tool's `env` list (a trailing `*` is a prefix, as in Deno's
 * `--allow-env`); `env: true` (inline tools only) keeps the whole environment.
 *
 * @module
 */

import { CERTIFICATE_VARIABLES } from "./kernel_constants.ts";
import type { ToolPermissions } from "../tool/define.ts";

/** Variables the runtime needs in every tool process (see the module doc). */
export const RUNTIME_VARIABLES: readonly string[] = [
  "PATH",
  "HOME",
  "XDG_CACHE_HOME",
  "DENO_DIR",
  "DENO_TLS_CA_STORE",
  "NPM_CONFIG_REGISTRY",
  "TMPDIR",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  ...CERTIFICATE_VARIABLES,
];

/** Proxy variables, passed to tools that declare `net`. */
export const PROXY_VARIABLES: readonly string[] = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
];

/**
 * The environment of a tool process with `permissions`, taken from `host` (the host's
 * variables); null when the tool declared `env: true` (it keeps the host's environment).
 *
 * @example
 * ```ts
 * import { toolEnvironment } from "./tool_env.ts";
 * const host = { PATH: "/usr/bin", GITHUB_TOKEN: "secret", API_KEY: "k" };
 * const env = toolEnvironment({ run: ["git"], env: ["API_KEY"] }, host)!;
 * console.assert(env.PATH === "/usr/bin" && env.API_KEY === "k");
 * console.assert(!("GITHUB_TOKEN" in env) && env.NO_COLOR === "1");
 * ```
 */
export function toolEnvironment(
  permissions: ToolPermissions | undefined,
  host: Readonly<Record<string, string>>,
): Record<string, string> | null {
  const declared = permissions?.env;
  if (declared === true) return null;
  const names = new Set(RUNTIME_VARIABLES);
  const net = permissions?.net;
  if (net === true || (Array.isArray(net) && net.length > 0)) {
    for (const name of PROXY_VARIABLES) names.add(name);
  }
  const prefixes: string[] = [];
  for (const entry of Array.isArray(declared) ? declared : []) {
    if (entry.endsWith("*")) prefixes.push(entry.slice(0, -1));
    else names.add(entry);
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(host)) {
    if (names.has(name) || prefixes.some((prefix) => name.startsWith(prefix))) env[name] = value;
  }
  env.NO_COLOR = "1";
  return env;
}
