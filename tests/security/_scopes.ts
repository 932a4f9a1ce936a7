/**
 * Helpers of the scope tests (describe cache, planted modules, --require-kernel-sandbox):
 * the CLI of this checkout run as a user would, from any working directory.
 */

import { join } from "node:path";
import { cli as kitCli, REFERENCE_AGENT, rootDir as ROOT } from "../_kit/mod.ts";

export { REFERENCE_AGENT, ROOT };

/** What one CLI run produced. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link cli}. */
export interface CliRunOptions {
  /** Working directory (often a temporary directory outside the repository). */
  readonly cwd: string;
  /** Variables added to the inherited environment. */
  readonly env?: Record<string, string>;
  /** The host's `deno run` permission flags; default `-A`. */
  readonly flags?: readonly string[];
  /** Written to stdin; default no stdin. */
  readonly input?: string;
  /** With `input`: stdin is closed once stdout so far passes this (default at once). */
  readonly closeWhen?: (stdout: string) => boolean;
  /** Kill after this long (a test failure, never a hang); default 60 s. */
  readonly killAfterMs?: number;
}

/** `deno run <flags> cli.ts ...args` with this checkout's config and full lockfile (the kit's). */
export async function cli(args: readonly string[], options: CliRunOptions): Promise<CliRun> {
  const { code, stdout, stderr } = await kitCli(args, {
    ...options,
    entry: "cli.ts",
    config: true,
    home: "inherit",
    backendSelfCheck: false,
  });
  return { code, stdout, stderr };
}

/** A temporary directory outside the repository, removed by the returned function. */
export async function tempDir(
  prefix: string,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  return { path, remove: () => Deno.remove(path, { recursive: true }).catch(() => {}) };
}

/** Whether anything is at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** A scenario file for the reference backend's scripted provider (`MAGI_SCENARIO`). */
export async function scenario(dir: string, steps: readonly unknown[]): Promise<string> {
  const path = join(dir, "scenario.json");
  await Deno.writeTextFile(path, JSON.stringify({ turns: [{ match: "GO", steps }] }));
  return path;
}
