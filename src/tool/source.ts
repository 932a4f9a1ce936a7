/**
 * What a started tool source is, as the sources' starter (`src/sources/`) and the MCP client
 * (`src/mcp/source.ts`) both see it: {@link McpSource} and the options of starting one. Declared
 * here, below both, so that neither imports the other for its types.
 *
 * @module
 */

import type { ExternalTool } from "./external.ts";

/** Options of `startMcpSource` (src/mcp/source.ts). */
export interface McpSourceOptions {
  /** Working directory of stdio servers without their own `cwd`. */
  readonly cwd: string;
  /** How long connecting and listing may take, ms; default 60,000 (`npx` may download first). */
  readonly startTimeoutMs?: number;
  /** Called once when the server exits (or its connection closes) before `McpSource.close`. */
  readonly onExit?: (server: string, message: string) => void;
  /** Stops start-up (e.g. Ctrl-C). */
  readonly signal?: AbortSignal;
  /**
   * Called after the server sent `notifications/tools/list_changed` and its tools were listed
   * again ({@link McpSource.tools} holds the new ones); a list that cannot be used keeps the
   * old tools and is reported to `onListFailed`.
   */
  readonly onToolsChanged?: (server: string) => void;
  /** A changed tool list that could not be used (the old tools stay); names the server. */
  readonly onListFailed?: (server: string, message: string) => void;
}

/** A connected MCP server and its tools. */
export interface McpSource {
  /** The `mcpServers` key. */
  readonly name: string;
  /** Its kept tools, as external tools (the latest list after a `list_changed`). */
  readonly tools: readonly ExternalTool[];
  /** Disconnect and reap the server process. Never rejects. */
  close(): Promise<void>;
}
