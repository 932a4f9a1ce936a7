/**
 * Run a tool the way the executor does (arguments parsed by the tool's own
 * schema, defaults applied) with a test context.
 *
 * @module
 */

import type { Tool, ToolContext } from "../../src/tool/define.ts";

/** Parse `args` with the tool's schema and run it in `cwd`. */
export async function runTool(
  tool: Tool,
  args: Record<string, unknown>,
  options: { cwd?: string; signal?: AbortSignal } = {},
): Promise<unknown> {
  const ctx: ToolContext = {
    signal: options.signal ?? new AbortController().signal,
    callId: "call-1",
    sessionId: "session-1",
    runId: "run-1",
    deadline: Date.now() + 60_000,
    cwd: options.cwd ?? Deno.cwd(),
    attempt: 1,
    progress: () => {},
  };
  return await tool.run(tool.input.parse(args), ctx);
}
