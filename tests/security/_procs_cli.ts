/**
 * The CLI as a user runs it with `deno task start` (the `start` task's own flags, read from
 * deno.json, not `-A`), for the process-containment security tests.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cli, eventually, root as ROOT } from "../_kit/mod.ts";

export { eventually, ROOT };
/** The fixture tools of these tests. */
export const PROCS_TOOLS = `${ROOT}tests/security/fixtures/procs_tools`;

/** The `deno run` flags of the `start` task (between `deno run` and `cli.ts`). */
export function startFlags(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)) as {
    tasks: Record<string, string>;
  };
  // The task starts with the environment it sets (MAGI_TOOLS_INVOCATION='deno task start').
  const words = config.tasks.start!.replace(/^(MAGI_TOOLS_INVOCATION='[^']*' )/, "").split(/\s+/);
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

/** Run `cli.ts args…` under the start task's flags from the repository root (the kit's {@link cli}). */
export async function startCli(
  args: readonly string[],
  options: { flags?: readonly string[]; env?: Record<string, string> } = {},
): Promise<Output> {
  const { code, stdout, stderr } = await cli(args, {
    entry: "cli.ts",
    lock: false,
    flags: options.flags ?? startFlags(),
    home: "inherit",
    backendSelfCheck: false,
    killAfterMs: 90_000,
    ...(options.env === undefined ? {} : { env: options.env }),
  });
  return { code, stdout, stderr };
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
