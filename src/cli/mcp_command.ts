/**
 * `mcp`: the host's tools as an MCP server, over stdio or (`--http PORT`)
 * Streamable HTTP. Tools load exactly as for `run` (modules, then the
 * config's MCP servers) and every call goes through one {@link ToolExecutor}.
 * On stdio the output guard is installed before any tool module loads, so
 * nothing but MCP frames reaches stdout.
 *
 * @module
 */

import { FeatureUnavailableError, loadFeature } from "../config/features.ts";
import { guardOutput, type OutputGuard } from "../host/output_guard.ts";
import { ToolExecutor } from "../host/executor.ts";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import {
  currentDir,
  isAddrInUse,
  onInterrupt,
  stdinStream,
  writeStderrLine,
} from "../runtime/mod.ts";
import type { McpArgs } from "./args.ts";
import { EXIT } from "./exit_codes.ts";
import { loadRegistry } from "./host_run.ts";
import { startConfiguredSources } from "./sources.ts";

/** Run `mcp` until stdin ends (stdio) or SIGINT; resolves with the exit code. */
export async function mcpCommand(args: McpArgs): Promise<number> {
  const cwd = currentDir();
  // On stdio, stdout carries MCP frames only: guard it before any tool module loads.
  const guard: OutputGuard | null = args.http === undefined ? guardOutput() : null;
  try {
    const sources = await startConfiguredSources({
      ...args,
      cwd,
      onWarning: (warning) => writeStderrLine(`magi-tools mcp: warning: ${warning.message}`),
    });
    if (sources === null) return EXIT.usage;
    try {
      const registry = await loadRegistry(args.toolDirs, undefined, sources.tools);
      if (registry === null) return EXIT.usage;
      let mcp;
      try {
        mcp = await loadFeature("mcp") as typeof import("../mcp/mod.ts");
      } catch (error) {
        if (!(error instanceof FeatureUnavailableError)) throw error;
        writeStderrLine(`magi-tools mcp: ${error.message}`);
        return EXIT.usage;
      }
      const { createMcpServer, GuardedStdioTransport, ProgressRoutes, serveMcpHttp } = mcp;
      const routes = new ProgressRoutes();
      const executor = new ToolExecutor(registry, {
        limits: CLIENT_TOOLS_LIMITS,
        cwd,
        onProgress: routes.deliver,
        onLog: (log) => writeStderrLine(`[${log.name} ${log.callId}] ${log.text.trimEnd()}`),
      });
      const create = () =>
        createMcpServer({
          registry,
          executor,
          routes,
          callTimeoutMs: CLIENT_TOOLS_LIMITS.call_timeout_ms,
        });
      let removeInterrupt = () => {};
      const interrupted = new Promise<void>((resolve) => {
        removeInterrupt = onInterrupt(() => resolve());
      });
      try {
        if (args.http !== undefined) {
          let http;
          try {
            http = await serveMcpHttp({ port: args.http, createServer: create });
          } catch (error) {
            if (isAddrInUse(error)) {
              writeStderrLine(`magi-tools mcp: Port ${args.http} is taken: 127.0.0.1:${args.http}`);
              return EXIT.startup;
            }
            if (
              (error as Error).name === "NotCapable" || (error as Error).name === "PermissionDenied"
            ) {
              writeStderrLine(
                `magi-tools mcp: Cannot listen on 127.0.0.1:${args.http}: ${
                  (error as Error).message
                }`,
              );
              return EXIT.usage;
            }
            throw error;
          }
          writeStderrLine(
            `magi-tools mcp: serving ${registry.tools.length} tool(s) at ${http.url}`,
          );
          await interrupted;
          await http.close();
        } else {
          const server = create();
          const closed = new Promise<void>((resolve) => {
            server.onclose = () => resolve();
          });
          await server.connect(
            new GuardedStdioTransport({ input: stdinStream(), write: guard!.writeStdout }),
          );
          await Promise.race([closed, interrupted]);
          await server.close().catch(() => {});
        }
      } finally {
        removeInterrupt();
        await executor.close();
      }
      return EXIT.ok;
    } finally {
      await sources.close();
    }
  } finally {
    guard?.restore();
  }
}
