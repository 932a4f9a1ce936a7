/**
 * The CLI as a user runs it with `deno task start` (the `start` task's own flags, read from
 * deno.json, not `-A`), for the process-containment security tests.
 *
 * @module
 */

import assert from "node:assert/strict";

/** Repository root (with a trailing slash). */
export const ROOT = new URL("../../", import.meta.url).pathname;
/** The fixture tools of these tests. */
export const PROCS_TOOLS = `${ROOT}tests/security/fixtures/procs_tools`;

/** The `deno run` flags of the `start` task (between `deno run` and `cli.ts`). */
export function startFlags(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)) as {
    tasks: Record<string, string>;
  };
  const words = config.tasks.start!.split(/\s+/);
  assert.deepEqual(words.slice(0, 2), ["deno", "run"], config.tasks.start);
  assert.equal(words.at(-1), "cli.ts", config.tasks.start);
  assert.ok(!words.includes("-A") && !words.includes("--allow-all"), config.tasks.start);
  return words.slice(2, -1);
}

/** What one CLI run printed. */
export interface Output {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `cli.ts args…` under the start task's flags from the repository root. */
export async function startCli(
  args: readonly string[],
  options: { flags?: readonly string[]; env?: Record<string, string> } = {},
): Promise<Output> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...(options.flags ?? startFlags()), `${ROOT}cli.ts`, ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...options.env },
    signal: AbortSignal.timeout(90_000),
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** `call NAME ARGS --json` of a fixture tool: the `call.result` record. */
export async function callTool(
  name: string,
  args: unknown,
  options: { flags?: readonly string[] } = {},
): Promise<{ record: Record<string, unknown>; output: Output }> {
  const output = await startCli(
    ["call", name, JSON.stringify(args), "--tools", PROCS_TOOLS, "--json"],
    options,
  );
  const line = output.stdout.trim().split("\n").at(-1) ?? "";
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line);
  } catch {
    throw new Error(`no call.result (exit ${output.code}): ${output.stdout}\n${output.stderr}`);
  }
  return { record, output };
}

/** Wait until `check()` is true, polling; false when `deadlineMs` passed first. */
export async function eventually(check: () => boolean, deadlineMs: number): Promise<boolean> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
