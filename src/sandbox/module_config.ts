/**
 * The config file (import map, lockfile) tool processes resolve their modules with.
 *
 * Deno takes the config of a process's entry module, and a tool process's entry is the runner,
 * one of magi-tools' own modules. From a checkout that is the checkout's `deno.json`, next to
 * the runner (Deno finds it; nothing to pass). From JSR the entry is remote and Deno takes the
 * working directory's config. From the npm package (its `deno` export condition) the runner lies
 * in Deno's npm cache, where no config is found, so a tool module's `@magi/tools` and `zod`
 * would not resolve: the host passes the project's config explicitly, the nearest `deno.json` or
 * `deno.jsonc` from the host's working directory up (the one Deno took for the host itself).
 *
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { currentDir } from "../runtime/mod.ts";

const RUNNER_URL = new URL("./runner.ts", import.meta.url);
const CONFIG_NAMES = ["deno.json", "deno.jsonc"];

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The `deno.json` that applies to the runner as Deno finds it (this package's, when it runs
 * from a checkout), or null.
 */
export function runnerConfig(): string | null {
  if (RUNNER_URL.protocol !== "file:") return null;
  const path = fileURLToPath(new URL("../../deno.json", RUNNER_URL));
  return isFile(path) ? path : null;
}

let project: string | null | undefined;

/** The nearest `deno.json`/`deno.jsonc` from the host's working directory up, or null. */
function projectConfig(): string | null {
  if (project !== undefined) return project;
  project = null;
  let dir = currentDir();
  for (;;) {
    const found = CONFIG_NAMES.map((name) => join(dir, name)).find(isFile);
    if (found !== undefined) return project = found;
    const parent = dirname(dir);
    if (parent === dir) return project;
    dir = parent;
  }
}

/**
 * The config the tool processes (and `deno info` of their graphs) must be given explicitly:
 * the project's when the runner is a local file with no config of its own (the npm package),
 * else null (Deno finds the right one itself).
 */
export function toolModuleConfig(): string | null {
  if (RUNNER_URL.protocol !== "file:" || runnerConfig() !== null) return null;
  return projectConfig();
}

/** `["--config", FILE]` for {@link toolModuleConfig}, or none. */
export function toolConfigFlags(): string[] {
  const config = toolModuleConfig();
  return config === null ? [] : ["--config", config];
}
