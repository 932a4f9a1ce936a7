/**
 * What a first `deno task demo` downloads: runs the task in this checkout with an empty Deno
 * cache (a temporary `DENO_DIR`, removed afterwards) and prints one JSON line:
 *
 * ```json
 * {"installed": ["jsonc-parser@3.3.1", "zod@4.6.7"], "graph": ["jsonc-parser@3.3.1", "zod@4.6.7"], "seconds": 4.2}
 * ```
 *
 * - `installed`: the npm packages (`name@version`) the task left in the cache;
 * - `graph`: the npm packages the demo's code imports, with their dependencies
 *   (`scripts/locks.ts`, {@link DEMO_ENTRIES}), resolved in the usual Deno cache;
 * - `seconds`: the task's wall time (mostly network time: compare runs taken close together).
 *
 * Both lists are sorted. Exit 0 when the task succeeded (whatever the lists are: the bench reports
 * them, `tests/scripts/first_run_test.ts` compares them), 1 with the task's stderr otherwise.
 *
 * Run as `deno run -A scripts/first_run.ts` (needs the npm registry).
 *
 * @module
 */

import { join } from "node:path";
import { DEMO_ENTRIES, entryFiles, graphPackages, ROOT } from "./locks.ts";

/** The measurement {@link firstRun} returns (and the script prints as one JSON line). */
export interface FirstRun {
  /** npm packages (`name@version`) in the cache after the task, sorted. */
  readonly installed: string[];
  /** npm packages of the demo's graph (`name@version`), sorted. */
  readonly graph: string[];
  /** The task's wall time, seconds. */
  readonly seconds: number;
}

/** The npm packages (`name@version`) installed in a Deno cache directory, sorted. */
export function installedPackages(denoDir: string): string[] {
  const registry = join(denoDir, "npm", "registry.npmjs.org");
  const dirs = (path: string) => {
    try {
      return [...Deno.readDirSync(path)].filter((entry) => entry.isDirectory)
        .map((entry) => entry.name);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
  };
  const names = dirs(registry).flatMap((name) =>
    name.startsWith("@") ? dirs(join(registry, name)).map((sub) => `${name}/${sub}`) : [name]
  );
  return names.flatMap((name) => dirs(join(registry, name)).map((version) => `${name}@${version}`))
    .sort();
}

/** `name@version` of a lockfile key (the peer suffix, `_zod@4.6.7`, dropped). */
export function withoutPeers(key: string): string {
  const at = key.indexOf("@", 1);
  const underscore = key.indexOf("_", at);
  return underscore < 0 ? key : key.slice(0, underscore);
}

/**
 * Run `deno task demo` in `root` with an empty cache and measure it (see the module doc).
 *
 * @throws {Error} with the task's exit code and stderr when it fails.
 */
export async function firstRun(root: string = ROOT): Promise<FirstRun> {
  const denoDir = await Deno.makeTempDir({ prefix: "magi-tools-first-run-" });
  try {
    const started = performance.now();
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["task", "demo"],
      cwd: root,
      env: { DENO_DIR: denoDir, NO_COLOR: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    if (!run.success) {
      throw new Error(
        `deno task demo exited ${run.code}:\n${new TextDecoder().decode(run.stderr)}`,
      );
    }
    const installed = installedPackages(denoDir);
    const config = join(root, "dev", "deno.json");
    const graph = await graphPackages(entryFiles(root, DEMO_ENTRIES, true), config);
    return { installed, graph: [...new Set([...graph].map(withoutPeers))].sort(), seconds };
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
}

if (import.meta.main) {
  try {
    console.log(JSON.stringify(await firstRun()));
  } catch (error) {
    console.error(`first_run.ts: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}
