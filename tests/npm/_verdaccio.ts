/**
 * A real npm registry on loopback for the package tests: Verdaccio, pinned in
 * dev/verdaccio/package.json (6.8.0: the last release that runs on Node.js 20), installed on first
 * use into `.tools/verdaccio/` (git-ignored) from the committed dev/verdaccio/package-lock.json.
 *
 * {@link startRegistry} runs it with a throwaway config and storage on a free loopback port
 * (packages it does not hold come from registry.npmjs.org through its uplink), adds a throwaway
 * user and returns the registry URL and that user's token for `npm publish`.
 *
 * `MAGI_TOOLS_REGISTRY_TESTS=0` skips the registry tests (loudly, like any other skip).
 *
 * @module
 */

import { join } from "node:path";

import { root as ROOT } from "../_kit/root.ts";

export { ROOT };
const SOURCE = `${ROOT}dev/verdaccio/`;
/** Where Verdaccio is installed (git-ignored, excluded from fmt/lint/test). */
export const INSTALL_DIR = `${ROOT}.tools/verdaccio/`;
const STAMP = `${INSTALL_DIR}installed-lock.json`;
const BIN = `${INSTALL_DIR}node_modules/.bin/verdaccio`;

let installed: Promise<string | null> | undefined;

/** Install the pinned Verdaccio once per process: null when it is there, else why it is not. */
export function installRegistry(): Promise<string | null> {
  installed ??= install();
  return installed;
}

async function install(): Promise<string | null> {
  if (Deno.env.get("MAGI_TOOLS_REGISTRY_TESTS") === "0") return "MAGI_TOOLS_REGISTRY_TESTS=0";
  for (const command of ["node", "npm"]) {
    if (!(await succeeds(command, ["--version"]))) return `${command} is not on PATH`;
  }
  const lock = await Deno.readTextFile(`${SOURCE}package-lock.json`);
  if (await readOrNull(STAMP) === lock && await exists(BIN)) return null;
  await Deno.mkdir(INSTALL_DIR, { recursive: true });
  await Deno.copyFile(`${SOURCE}package.json`, `${INSTALL_DIR}package.json`);
  await Deno.writeTextFile(`${INSTALL_DIR}package-lock.json`, lock);
  console.error(`tests/npm: installing Verdaccio into ${INSTALL_DIR} (npm ci)`);
  let code: number;
  try {
    code = (await new Deno.Command("npm", {
      args: ["ci", "--no-audit", "--no-fund", "--loglevel=error"],
      cwd: INSTALL_DIR,
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).output()).code;
  } catch (error) {
    return `npm could not run: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (code !== 0) return `npm ci in ${INSTALL_DIR} exited with code ${code}`;
  await Deno.writeTextFile(STAMP, lock);
  return null;
}

/** A running registry. */
export interface Registry {
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string;
  /** A token of the throwaway user, for `npm publish`. */
  readonly token: string;
  /** The throwaway folder (config, storage, htpasswd). */
  readonly dir: string;
  /** Stop the registry and remove its folder. */
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 right now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function config(dir: string, port: number): string {
  return [
    `storage: ${join(dir, "storage")}`,
    "auth:",
    "  htpasswd:",
    `    file: ${join(dir, "htpasswd")}`,
    "uplinks:",
    "  npmjs:",
    "    url: https://registry.npmjs.org/",
    "packages:",
    "  '@magi/*':",
    "    access: $all",
    "    publish: $authenticated",
    "  '**':",
    "    access: $all",
    "    publish: $authenticated",
    "    proxy: npmjs",
    "server:",
    "  keepAliveTimeout: 60",
    `listen: 127.0.0.1:${port}`,
    "log: { type: stdout, format: pretty, level: warn }",
    "",
  ].join("\n");
}

/** Start Verdaccio (installed by {@link installRegistry}) and add a throwaway user. */
export async function startRegistry(): Promise<Registry> {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-verdaccio-" });
  const port = freePort();
  await Deno.writeTextFile(join(dir, "config.yaml"), config(dir, port));
  const child = new Deno.Command(BIN, {
    args: ["--config", join(dir, "config.yaml")],
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", FORCE_COLOR: "0" },
  }).spawn();
  const url = `http://127.0.0.1:${port}/`;
  let log = "";
  const stderr = new Response(child.stderr).text();
  // Verdaccio logs "http address - http://127.0.0.1:PORT/" once it listens.
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  while (!log.includes(`127.0.0.1:${port}`)) {
    const { value, done } = await reader.read();
    if (done) {
      await child.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      throw new Error(`Verdaccio exited before listening:\n${log}\n${await stderr}`);
    }
    log += value;
  }
  // Keep draining its output so it never blocks on a full pipe.
  const drain = (async () => {
    while (!(await reader.read()).done) { /* drop */ }
  })();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
    await drain.catch(() => {});
    await stderr.catch(() => {});
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    const user = "magi-release-test";
    const response = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: user, password: crypto.randomUUID() }),
    });
    const body = await response.json() as { token?: unknown };
    if (!response.ok || typeof body.token !== "string") {
      throw new Error(`Verdaccio did not add a user: ${response.status} ${JSON.stringify(body)}`);
    }
    return { url, token: body.token, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function succeeds(command: string, args: string[]): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(command, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}
