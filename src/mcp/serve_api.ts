/**
 * What `magi-tools mcp` (src/cli/commands/mcp.ts) uses of this folder, declared without the MCP
 * SDK: the CLI loads `src/mcp/` through `loadFeature("mcp")` (src/sources/features.ts) and types it
 * with {@link McpServeModule}, so no type-only import pulls the SDK into the graph of the CLI or
 * of this package's public modules. `serve.ts` implements it (checked by its type annotation).
 *
 * @module
 */

import type { ApprovalPolicy } from "../call/approval_rules.ts";
import type { ExecutorOptions } from "../call/executor.ts";
import type { ToolLog } from "../sandbox/log_buffer.ts";
import type { ToolRegistry } from "../toolset/registry.ts";

/** Default of `mcp --max-sessions`. */
export const DEFAULT_MAX_SESSIONS = 64;
/** Default of `mcp --session-idle-timeout`, seconds. */
export const DEFAULT_SESSION_IDLE_SECONDS = 1_800;

/** Where {@link McpServeModule.serveRegistry} serves. */
export type ServeTransport =
  | {
    readonly kind: "stdio";
    /** The host's stdin, where MCP frames arrive. */
    readonly input: AsyncIterable<Uint8Array>;
    /** Writes all of its bytes to the real stdout (the output guard's). */
    readonly write: (bytes: Uint8Array) => Promise<void>;
  }
  | {
    readonly kind: "http";
    /** Streamable HTTP on `127.0.0.1:port` (0: any free port). */
    readonly port: number;
    /** The bearer token every request must carry (`Authorization: Bearer <token>`). */
    readonly token: string;
    /** `--max-sessions`: at most this many MCP sessions (idle ones make room first). */
    readonly maxSessions: number;
    /** `--session-idle-timeout` in ms: a session idle this long is closed (0: never). */
    readonly sessionIdleMs: number;
    /** Listening at `url` (on `port`, the one asked for or the free one picked). */
    readonly onListening: (url: string, port: number) => void | Promise<void>;
  };

/** New tool sets of `mcp --watch`, as they load. */
export interface RegistryUpdates {
  /** Call `listener` with each new registry (a reload that succeeded). */
  subscribe(listener: (registry: ToolRegistry) => void): void;
}

/** Options of {@link McpServeModule.serveRegistry}. */
export interface ServeRegistryOptions {
  /** The tools to serve (the first set, with {@link ServeRegistryOptions.updates}). */
  readonly registry: ToolRegistry;
  /**
   * `--watch`: later tool sets. Each replaces the served one (calls running keep theirs), and
   * every connected client gets `notifications/tools/list_changed` when the list changed;
   * `tools.listChanged: true` is advertised.
   */
  readonly updates?: RegistryUpdates;
  /** Working directory of tool calls. */
  readonly cwd: string;
  /** stdio or Streamable HTTP. */
  readonly transport: ServeTransport;
  /** A tool's log line. */
  readonly onLog: (log: ToolLog) => void;
  /** What write tools do: `--approve` and `--approve-timeout` (ms). */
  readonly approval: {
    readonly mode: "deny" | "allow" | "ask";
    readonly timeoutMs: number;
    /** The approval rules (`--approve allow=TOOL`, the config's `approvals`); absent: `mode`. */
    readonly policy?: ApprovalPolicy;
  };
  /** `--max-result-bytes` and `--overflow`: for tools that declare no bound or policy. */
  readonly resultDefaults?: ExecutorOptions["resultDefaults"];
}

/** How {@link McpServeModule.serveRegistry} ended. */
export type ServeOutcome =
  /** stdin ended (stdio), or SIGINT. */
  | { readonly kind: "done" }
  /** HTTP: the port is taken. */
  | { readonly kind: "port_taken" }
  /** HTTP: listening is not permitted (`--allow-net`); `message` is the runtime's. */
  | { readonly kind: "cannot_listen"; readonly message: string };

/** The part of `src/mcp/mod.ts` that `magi-tools mcp` uses. */
export interface McpServeModule {
  /**
   * Serve `registry` as an MCP server over stdio or Streamable HTTP through one executor, until
   * stdin ends (stdio) or SIGINT; then close the executor.
   */
  serveRegistry(options: ServeRegistryOptions): Promise<ServeOutcome>;
}
