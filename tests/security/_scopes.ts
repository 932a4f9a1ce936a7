/**
 * Helpers of the scope tests (describe cache, planted modules, --require-kernel-sandbox):
 * the CLI of this checkout run as a user would, from any working directory.
 */

import assert from "node:assert/strict";
import { join } from "node:path";

/** Repository root (no trailing slash). */
export const ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
/** The reference backend as an `--agent` command line. */
export const REFERENCE_AGENT =
  `${Deno.execPath()} run -A ${ROOT}/src/reference_backend/main.ts serve --stdio`;

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

/** `deno run <flags> cli.ts ...args` with this checkout's config and full lockfile. */
export async function cli(args: readonly string[], options: CliRunOptions): Promise<CliRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--config",
      join(ROOT, "deno.json"),
      `--lock=${join(ROOT, "deno.full.lock")}`,
      ...(options.flags ?? ["-A"]),
      join(ROOT, "cli.ts"),
      ...args,
    ],
    cwd: options.cwd,
    stdin: options.input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: {
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      MAGI_CODE_AGENT: REFERENCE_AGENT,
      ...options.env,
    },
  }).spawn();
  let killed = false;
  const guard = setTimeout(() => {
    killed = true;
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, options.killAfterMs ?? 60_000);
  const writer = options.input === undefined ? null : child.stdin.getWriter();
  await writer?.write(new TextEncoder().encode(options.input));
  const close = () => writer?.close().catch(() => {});
  if (options.closeWhen === undefined) await close();
  const readStdout = async () => {
    let text = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      text += decoder.decode(chunk, { stream: true });
      if (options.closeWhen?.(text)) await close();
    }
    await close();
    return text;
  };
  const [status, stdout, stderr] = await Promise.all([
    child.status,
    readStdout(),
    new Response(child.stderr).text(),
  ]);
  clearTimeout(guard);
  assert.equal(killed, false, `CLI did not exit in time; stderr:\n${stderr}`);
  return { code: status.code, stdout, stderr };
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
