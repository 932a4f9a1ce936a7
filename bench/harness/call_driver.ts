/**
 * `call` driver: runs the product CLI's `call` subcommand once, as a tool
 * author would (`deno run -A <start task V8 flags> cli.ts call NAME '{}'
 * --tools DIR`), times spawn → exit, checks that stdout is the expected
 * result text, and prints one JSON line: `{"call_ms": n, "exit_code": 0}`.
 *
 * Run: `deno run -A bench/harness/call_driver.ts --tools bench/harness/host_tools_isolated
 * --tool trivial --expect hello`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { startTaskV8Flags } from "./host_driver.ts";

const REPO = new URL("../../", import.meta.url).pathname;

/** What {@link measureCall} reports. */
export interface CallRunResult {
  /** Spawn → exit of the `call` process, ms. */
  call_ms: number;
  /** Its exit code. */
  exit_code: number;
}

/** Run `call` once; throws when it fails or prints something other than `expect`. */
export async function measureCall(
  spec: { toolDir: string; tool: string; expect: string },
): Promise<CallRunResult> {
  const v8 = startTaskV8Flags(await Deno.readTextFile(`${REPO}deno.json`));
  const t0 = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...v8, `${REPO}cli.ts`, "call", spec.tool, "{}", "--tools", spec.toolDir],
    cwd: REPO,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const callMs = performance.now() - t0;
  const text = new TextDecoder().decode(output.stdout).trim();
  if (!output.success || text !== spec.expect) {
    throw new Error(
      `call ${spec.tool} failed: exit ${output.code}, stdout ${JSON.stringify(text)}`,
    );
  }
  return { call_ms: callMs, exit_code: output.code };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      tools: { type: "string", default: new URL("./host_tools", import.meta.url).pathname },
      tool: { type: "string", default: "trivial" },
      expect: { type: "string", default: "hello" },
    },
  });
  const result = await measureCall({
    toolDir: values.tools,
    tool: values.tool,
    expect: values.expect,
  });
  console.log(JSON.stringify(result));
}
