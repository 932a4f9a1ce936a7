/**
 * `mcp`: the host's tools as an MCP server, over stdio or (`--http PORT`)
 * Streamable HTTP. Tools load exactly as for `run` (modules, then the
 * config's MCP servers) and every call goes through one executor
 * (`src/mcp/serve.ts`, loaded through `loadFeature("mcp")` so the MCP SDK is
 * not in the graph of other commands). On stdio the output guard is
 * installed before any tool module loads, so nothing but MCP frames reaches
 * stdout. Over HTTP every request needs the bearer token (`src/mcp/http_token.ts`);
 * on both transports write tools follow `--approve` (`src/mcp/write_policy.ts`).
 *
 * @module
 */

import { withConfigRules } from "../../call/approval_rules.ts";
import { loadFeature } from "../../sources/features.ts";
import { guardOutput, type OutputGuard } from "../../tool/output_guard.ts";
import type { McpServeModule, ServeOutcome, ServeTransport } from "../../mcp/serve_api.ts";
import { currentDir, stdinStream, stopSignal, writeStderrLine } from "../../runtime/mod.ts";
import type { McpArgs } from "../args/mod.ts";
import {
  type Announced,
  announceToken,
  type McpCredential,
  mcpCredential,
} from "../../mcp/http_token.ts";
import { EXIT, exitCode } from "../../run/exit_codes.ts";
import { isHostError, isReported } from "../../errors/mod.ts";
import { loadRegistry } from "../../run/backend_run.ts";
import { planTools, startPlannedSources } from "../../run/sources.ts";
import { LiveTools } from "../../run/live_tools.ts";
import type { ToolRegistry } from "../../toolset/registry.ts";

/** Run `mcp` until stdin ends (stdio) or SIGINT; resolves with the exit code. */
export async function mcpCommand(args: McpArgs): Promise<number> {
  const cwd = currentDir();
  let credential: McpCredential | null = null;
  if (args.http !== undefined) {
    try {
      credential = mcpCredential(args.token);
    } catch (error) {
      if (!isHostError(error, "usage")) throw error; // A bad MAGI_TOOLS_MCP_TOKEN.
      writeStderrLine(`magi-tools mcp: ${error.message}`);
      return exitCode(error.code);
    }
  }
  let announced: Announced | null = null;
  // On stdio, stdout carries MCP frames only: guard it before any tool module loads.
  const guard: OutputGuard | null = args.http === undefined ? guardOutput() : null;
  try {
    const plan = await planTools({ ...args, cwd });
    if (isReported(plan)) return exitCode(plan.code);
    // --watch: an MCP server's tools/list_changed reloads too (bound once `live` exists).
    let live: LiveTools | null = null;
    const sources = await startPlannedSources(plan, {
      cwd,
      startTimeoutMs: args.startTimeoutMs,
      onWarning: (warning) => writeStderrLine(`magi-tools mcp: warning: ${warning.message}`),
      ...(args.watch ? { onToolsChanged: () => live?.onToolsChanged() } : {}),
    });
    if (isReported(sources)) return exitCode(sources.code);
    const listeners: ((registry: ToolRegistry) => void)[] = [];
    try {
      const registry = await loadRegistry(plan.toolDirs, {
        external: sources.tools,
        configFiles: plan.config.files,
      });
      if (isReported(registry)) return exitCode(registry.code);
      const mcp = await loadMcp();
      if (typeof mcp === "number") return mcp;
      if (args.watch) {
        live = new LiveTools({
          planOptions: { ...args, cwd },
          plan,
          sources,
          label: "magi-tools mcp",
          onRegistry: (next) => listeners.forEach((listener) => listener(next)),
        });
        live.watch();
      }
      const outcome = await mcp.serveRegistry({
        registry,
        ...(args.watch ? { updates: { subscribe: (l) => void listeners.push(l) } } : {}),
        cwd,
        transport: args.http === undefined || credential === null
          ? { kind: "stdio", input: stdinStream(), write: guard!.writeStdout }
          : httpTransport(args, {
            port: args.http,
            credential,
            registry,
            onAnnounced: (a) => announced = a,
          }),
        onLog: (log) => writeStderrLine(`[${log.name} ${log.callId}] ${log.text.trimEnd()}`),
        approval: {
          mode: args.approve,
          timeoutMs: args.approveTimeoutMs,
          // The flags' approval rules first, then the config's (`call/approval_rules.ts`).
          policy: withConfigRules(args.approvals, plan.config.approvals ?? []),
        },
        resultDefaults: {
          ...(args.maxResultBytes === undefined ? {} : { maxResultBytes: args.maxResultBytes }),
          ...(args.overflow === undefined ? {} : { overflow: args.overflow }),
        },
      });
      return exitOf(outcome, args);
    } finally {
      // With --watch the live set owns the sources (the first ones or a reload's).
      await ((live as LiveTools | null)?.close() ?? sources.close());
    }
  } finally {
    await (announced as Announced | null)?.remove();
    guard?.restore();
  }
}

/** The MCP feature (the SDK and the server), or the exit code when it cannot be loaded. */
async function loadMcp(): Promise<McpServeModule | number> {
  try {
    return await loadFeature("mcp") as McpServeModule;
  } catch (error) {
    if (!isHostError(error, "feature_unavailable")) throw error;
    writeStderrLine(`magi-tools mcp: ${error.message}`);
    return exitCode(error.code);
  }
}

/**
 * `--http PORT`: once listening, the token is announced (`onAnnounced` keeps it, to remove at
 * exit) and the URL and how to authenticate go to stderr in one write.
 */
function httpTransport(
  args: McpArgs,
  options: {
    readonly port: number;
    readonly credential: McpCredential;
    readonly registry: ToolRegistry;
    readonly onAnnounced: (announced: Announced) => void;
  },
): ServeTransport {
  const { port, credential, registry } = options;
  return {
    kind: "http",
    port,
    token: credential.token,
    maxSessions: args.maxSessions,
    sessionIdleMs: args.sessionIdleMs,
    onListening: async (url, port) => {
      const announced = await announceToken(credential, port);
      options.onAnnounced(announced);
      // One write: a reader that sees the URL sees how to authenticate.
      writeStderrLine(
        `magi-tools mcp: serving ${registry.tools.length} tool(s) at ${url}\n` +
          `magi-tools mcp: ${announced.line}`,
      );
    },
  };
}

/** The exit code of a served `mcp`, with the message when it could not listen. */
function exitOf(outcome: ServeOutcome, args: McpArgs): number {
  if (outcome.kind === "port_taken") {
    writeStderrLine(`magi-tools mcp: Port ${args.http} is taken: 127.0.0.1:${args.http}`);
    return exitCode("startup_failed");
  }
  if (outcome.kind === "cannot_listen") {
    writeStderrLine(
      `magi-tools mcp: Cannot listen on 127.0.0.1:${args.http}: ${outcome.message}`,
    );
    return exitCode("usage");
  }
  // SIGTERM (a supervisor's stop) is a graceful stop too, but says which one it was.
  return stopSignal() === "SIGTERM" ? EXIT.terminated : EXIT.ok;
}
