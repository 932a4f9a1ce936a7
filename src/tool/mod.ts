/**
 * What a tool and a call are: `defineTool` (`define.ts`), external tools from other sources
 * (`external.ts`), the call contract every front door uses (`call.ts`: `ToolCallRequest` in,
 * `ToolCallResult` out, `CallExecutor`), rich content (`content.ts`), a result's text and its
 * split (`result.ts`), progress (`progress.ts`), every text the model sees for a call that did not
 * succeed (`answers.ts`), and the small rules shared by the host and the tool process
 * (`reserved_names.ts`, `load_reasons.ts`, `tool_stack.ts`, `console.ts`, `output_guard.ts`).
 * Imports nothing above `src/summary/`: the sandbox, the tool set and the call path build on it.
 *
 * @module
 */

export type { CallExecutor, ToolCallOutcome, ToolCallRequest, ToolCallResult } from "./call.ts";
export { defineTool, isTool, type Tool, type ToolContext, type ToolSpec } from "./define.ts";
export { type ExternalTool, isExternalTool } from "./external.ts";
