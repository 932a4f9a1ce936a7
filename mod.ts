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
 * @example Bounds and error codes of the protocol
 * ```ts
 * import { isErrorCode, LIMITS } from "@magi/tools";
 * console.assert(LIMITS.input_frame_bytes === 65_536 && isErrorCode("busy"));
 * ```
 *
 * @module
 */

export * from "./src/protocol/limits.ts";
export * from "./src/protocol/errors.ts";
export {
  AgentConnection,
  BackendExited,
  ClientClosed,
  LocalAgentClient,
  ProtocolViolation,
  Reconciler,
} from "./src/client/mod.ts";
export type {
  AgentEvent,
  AgentTransport,
  ClientOptions,
  EventDataMap,
  EventListener,
  ReconciledMessage,
  RequestOptions,
} from "./src/client/mod.ts";
export * from "./src/protocol/schemas/mod.ts";
export type { JsonObject, JsonValue } from "./src/protocol/json.ts";
export type { ExitInfo } from "./src/runtime/types.ts";
export { defineTool, TOOL_MARK } from "./src/tool/define.ts";
/** Rich results: `return content("Chart:", image(pngBytes, "image/png"))` (docs/tools.md). */
export {
  audio,
  content,
  type ContentPart,
  image,
  resourceLink,
  RICH_MARK,
  type RichResult,
} from "./src/tool/content.ts";
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
/*
 * The tool sandbox's public helpers: a tool's isolation and permissions as
 * text (`formatToolPermissions`) or data (`toolSandboxInfo`), one tool's
 * `--allow-*` flags (`permissionFlags`), and the least `deno run` flags a
 * host needs for a tool set (`hostDenoFlags`, or `denoFlagsForHost` with an
 * explicit Deno path). Each symbol's own JSDoc is in src/sandbox/.
 */
export {
  denoFlagsForHost,
  formatToolPermissions,
  hostDenoFlags,
  isolationOf,
  PERMISSION_NAMES,
  permissionFlags,
  toolSandboxInfo,
} from "./src/sandbox/mod.ts";
export type {
  FormatPermissionsOptions,
  HostFlagOptions,
  PermissionName,
  ToolLog,
  ToolSandboxInfo,
  ToolSet,
} from "./src/sandbox/mod.ts";
export * from "./src/summary/mod.ts";
/* The timers that writers and the executor take (`clock` options; tests pass a fake one). */
export { type Clock, REAL_CLOCK, type TimerId } from "./src/async/mod.ts";
/*
 * `run` as a function: one turn with the tools of some directories, the
 * summary records returned instead of printed (docs/library.md).
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
export { UsageError } from "./src/errors/mod.ts";
export {
  HostError,
  type HostErrorCode,
  isHostError,
  LOCAL_ERROR_CODES,
  type LocalErrorCode,
  RECORD_ERROR_CODES,
  type RecordErrorCode,
} from "./src/errors/mod.ts";

if (import.meta.main) {
  const { main } = await import("./src/cli/main.ts");
  const { commandArgs, exitProcess } = await import("./src/runtime/mod.ts");
  exitProcess(await main(commandArgs()));
}
