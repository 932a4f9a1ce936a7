/**
 * magi-tools: give a coding agent your own tools over the
 * `magi-code.local-agent` protocol.
 *
 * As a library: define tools with `defineTool` and a zod 4 schema (import `z`
 * from your own `zod` dependency), run one turn with them and get the summary
 * records back with `runOneTurn`, or drive a backend yourself with
 * `LocalAgentClient` (`docs/library.md`). As a program (`deno run -A mod.ts run "prompt"`, or the
 * `./cli` export): the tool host CLI (`docs/cli.md`).
 *
 * Two more entries: `@magi/tools/protocol` (the wire contract: bounds, error codes, the type of
 * every method's params and result and every event's data) and `@magi/tools/records` (the
 * summary records' types and `parseRecord`).
 *
 * @example Define a tool
 * ```ts
 * import { z } from "zod";
 * import { defineTool } from "@magi/tools";
 *
 * export default defineTool({
 *   name: "echo",
 *   description: "Return the given text unchanged.",
 *   input: z.strictObject({ text: z.string().describe("Text to return") }),
 *   effect: "read",
 *   isolation: "inline",
 *   run: ({ text }) => text,
 * });
 * ```
 *
 * @example Talk to a backend with `LocalAgentClient` (here the reference backend)
 * ```ts
 * import { LocalAgentClient } from "@magi/tools";
 *
 * const home = await Deno.makeTempDir();
 * const backend = new Deno.Command(Deno.execPath(), {
 *   args: ["run", "-A", "src/reference_backend/main.ts", "serve", "--stdio"],
 *   env: { MC_HOME: home },
 *   stdin: "piped",
 *   stdout: "piped",
 * }).spawn();
 * const client = new LocalAgentClient(backend);
 * const init = await client.initialize({ required_capabilities: ["status", "shutdown"] });
 * console.assert(init.limits.input_frame_bytes === 65_536);
 * await client.shutdown();
 * await client.endInput();
 * await client.done;
 * await backend.status;
 * await Deno.remove(home, { recursive: true });
 * ```
 *
 * @module
 */

/*
 * Tools: `defineTool` and what a tool and its context are (docs/tools.md); rich results:
 * `return content("Chart:", image(pngBytes, "image/png"))`.
 */
export { defineTool, TOOL_MARK } from "./src/tool/define.ts";
export type {
  PermissionGrant,
  ResultOverflow,
  Tool,
  ToolAnnotations,
  ToolContext,
  ToolEffect,
  ToolInfo,
  ToolPermissions,
  ToolSpec,
} from "./src/tool/define.ts";
export {
  audio,
  content,
  type ContentPart,
  image,
  resourceLink,
  RICH_MARK,
  type RichResult,
} from "./src/tool/content.ts";
/*
 * `run` as a function: one turn with the tools of some directories, the
 * summary records returned instead of printed, with its hooks (docs/library.md).
 */
export { runOneTurn } from "./src/run/one_turn.ts";
export type { OneTurnOptions, OneTurnResult } from "./src/run/one_turn.ts";
export {
  type ApprovalCall,
  ApprovalRuleError,
  HookError,
  type OnApproval,
} from "./src/run/library_hooks.ts";
export {
  type BeforeCallVerdict,
  type CallHooks,
  CallRefusedError,
  type HookedCall,
  type HookedResult,
} from "./src/call/hooks.ts";
export type { ToolCallOutcome } from "./src/tool/call.ts";
export type { SummaryRecord } from "./src/summary/records.ts";
/* The typed client over any child with piped stdin/stdout (docs/library.md). */
export { AgentConnection, LocalAgentClient, Reconciler } from "./src/client/mod.ts";
export type {
  AgentEvent,
  AgentTransport,
  ClientOptions,
  EventDataMap,
  EventListener,
  ReconciledMessage,
  RequestOptions,
} from "./src/client/mod.ts";
export type { ExitInfo } from "./src/runtime/types.ts";
/* Errors: the host's one type with its codes, its named subclasses, and the wire's own. */
export {
  HostError,
  type HostErrorCode,
  isHostError,
  LOCAL_ERROR_CODES,
  type LocalErrorCode,
  RECORD_ERROR_CODES,
  type RecordErrorCode,
} from "./src/errors/mod.ts";
export { UsageError } from "./src/errors/mod.ts";
export { BackendExited, ClientClosed, ProtocolViolation } from "./src/client/mod.ts";
export { type ErrorCode, ProtocolError } from "./src/protocol/errors.ts";

if (import.meta.main) {
  const { main } = await import("./src/cli/main.ts");
  const { commandArgs, exitProcess } = await import("./src/runtime/mod.ts");
  exitProcess(await main(commandArgs()));
}
