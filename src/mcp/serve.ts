/**
 * `magi-tools mcp`'s server side: the registry served over stdio or Streamable HTTP through one
 * {@link ToolExecutor} (the CLI's `mcp_command.ts` maps the outcome to exit codes and messages).
 *
 * @module
 */

import { ToolExecutor } from "../host/executor.ts";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import { isAddrInUse, onInterrupt, writeStderrLine } from "../runtime/mod.ts";
import { FairSlots } from "./_fair_slots.ts";
import { serveMcpHttp } from "./http.ts";
import { createMcpServer, ProgressRoutes } from "./server.ts";
import type { McpServeModule, ServeOutcome, ServeRegistryOptions } from "./serve_api.ts";
import { GuardedStdioTransport } from "./stdio_server.ts";

/** Serve `options.registry` until stdin ends (stdio) or SIGINT (see {@link McpServeModule}). */
export const serveRegistry: McpServeModule["serveRegistry"] = async (
  options: ServeRegistryOptions,
): Promise<ServeOutcome> => {
  const { registry } = options;
  const routes = new ProgressRoutes();
  const executor = new ToolExecutor(registry, {
    limits: CLIENT_TOOLS_LIMITS,
    cwd: options.cwd,
    onProgress: routes.deliver,
    onLog: options.onLog,
    // A tool's expected failure (a thrown "File not found") is one line on stderr, which the
    // agents show in their logs; the model gets the message as the result.
    failureDetail: "line",
  });
  const concurrent = CLIENT_TOOLS_LIMITS.concurrent_calls;
  // Over HTTP every client shares the slots: none may take all of them.
  const slots = new FairSlots({ capacity: concurrent, perClient: Math.max(1, concurrent - 1) });
  const create = (stop?: AbortSignal) =>
    createMcpServer({
      registry,
      executor,
      routes,
      callTimeoutMs: CLIENT_TOOLS_LIMITS.call_timeout_ms,
      approval: options.approval,
      ...(stop === undefined ? { slots } : { stop }),
    });
  let removeInterrupt = () => {};
  const interrupted = new Promise<void>((resolve) => {
    removeInterrupt = onInterrupt(() => resolve());
  });
  try {
    const transport = options.transport;
    if (transport.kind === "http") {
      let http;
      try {
        http = await serveMcpHttp({
          port: transport.port,
          token: transport.token,
          maxSessions: transport.maxSessions,
          sessionIdleMs: transport.sessionIdleMs,
          onSessionExpired: (id) =>
            writeStderrLine(
              `magi-tools mcp: session ${id} closed after ${
                transport.sessionIdleMs / 1000
              } s idle (--session-idle-timeout)`,
            ),
          createServer: () => create(),
        });
      } catch (error) {
        if (isAddrInUse(error)) return { kind: "port_taken" };
        const name = (error as Error).name;
        if (name === "NotCapable" || name === "PermissionDenied") {
          return { kind: "cannot_listen", message: (error as Error).message };
        }
        throw error;
      }
      try {
        await transport.onListening(http.url, Number(new URL(http.url).port));
        await interrupted;
      } finally {
        await http.close();
      }
    } else {
      const stdio = new GuardedStdioTransport({
        input: transport.input,
        write: transport.write,
        onUnanswered: (count) =>
          writeStderrLine(
            `magi-tools mcp: stdin ended; closing with ${count} request(s) still unanswered`,
          ),
      });
      // The one client: all slots are its own; the end of stdin cancels its calls.
      const server = create(stdio.inputEnded);
      const closed = new Promise<void>((resolve) => {
        server.onclose = () => resolve();
      });
      await server.connect(stdio);
      await Promise.race([closed, interrupted]);
      await server.close().catch(() => {});
    }
    return { kind: "done" };
  } finally {
    removeInterrupt();
    await executor.close();
  }
};
