/**
 * The tool host: `defineTool` (`define.ts`), discovery of tool modules (`discovery.ts`), the
 * registry with its JSON Schemas, byte budgets and `tool_id`s (`registry.ts`), the executor
 * (`executor.ts`: validate → run with signal and deadline → bound and chunk the result), the
 * call contract every front door uses (`call.ts`), every text the model sees for a call that did
 * not succeed (`answers.ts`), the `client.tools` call session over a client (`session.ts`),
 * external tool sources (`external.ts`) and the process sandbox (`sandbox/`). Files starting with `_` are internal
 * building blocks of this folder.
 *
 * @module
 */

export type { CallExecutor, ToolCallOutcome, ToolCallRequest, ToolCallResult } from "./call.ts";
export { defineTool, isTool, type Tool, type ToolContext, type ToolSpec } from "./define.ts";
export { loadToolDirs } from "./discovery.ts";
export { ToolLoadError } from "../errors/mod.ts";
export { ToolExecutor } from "./executor.ts";
export type { ToolFailure } from "./executor.ts";
export { ToolRegistry } from "./registry.ts";
export { ToolCallSession } from "./session.ts";
