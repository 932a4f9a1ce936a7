/**
 * `magi-tools mcp`'s server side: the registry served over stdio or Streamable HTTP through one
 * {@link ToolExecutor} (the CLI's `mcp_command.ts` maps the outcome to exit codes and messages).
 *
 * @module
 */

import { ToolExecutor } from "../call/executor.ts";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import { isAddrInUse, onInterrupt, writeStderrLine } from "../runtime/mod.ts";
import { FairSlots } from "./_fair_slots.ts";
import { serveMcpHttp } from "./http.ts";
import { createMcpServer, mcpToolList, ProgressRoutes } from "./server.ts";
import type { Server } from "./_sdk.ts";
import type { ToolRegistry } from "../toolset/registry.ts";
import type {
  McpServeModule,
  ServeOutcome,
  ServeRegistryOptions,
  ServeTransport,
} from "./serve_api.ts";
import { GuardedStdioTransport } from "./stdio_server.ts";

/** Serve `options.registry` until stdin ends (stdio) or SIGINT (see {@link McpServeModule}). */
export const serveRegistry: McpServeModule["serveRegistry"] = async (
  options: ServeRegistryOptions,
): Promise<ServeOutcome> => {
  const routes = new ProgressRoutes();
  const executorOf = (registry: ToolRegistry) =>
    new ToolExecutor(registry, {
      limits: CLIENT_TOOLS_LIMITS,
      cwd: options.cwd,
      onProgress: routes.deliver,
      onLog: options.onLog,
      // A tool's expected failure (a thrown "File not found") is one line on stderr, which the
      // agents show in their logs; the model gets the message as the result.
      failureDetail: "line",
      // Images and audio go to the client as MCP content, not to files.
      saveMedia: false,
      ...(options.resultDefaults === undefined ? {} : { resultDefaults: options.resultDefaults }),
    });
  let served = new Generation(options.registry, executorOf(options.registry));
  const retired: Promise<void>[] = [];
  const servers = new Set<Server>();
  options.updates?.subscribe((registry) => {
    const old = served;
    served = new Generation(registry, executorOf(registry));
    retired.push(old.retire());
    const before = JSON.stringify(mcpToolList(old.registry));
    if (JSON.stringify(mcpToolList(registry)) === before) return;
    for (const server of servers) {
      server.sendToolListChanged().catch(() => servers.delete(server));
    }
  });
  const concurrent = CLIENT_TOOLS_LIMITS.concurrent_calls;
  // Over HTTP every client shares the slots: none may take all of them.
  const slots = new FairSlots({ capacity: concurrent, perClient: Math.max(1, concurrent - 1) });
  const create = (stop?: AbortSignal) => {
    const server = createMcpServer({
      registry: options.registry,
      executor: served.executor,
      ...(options.updates === undefined ? {} : { current: () => served }),
      routes,
      callTimeoutMs: CLIENT_TOOLS_LIMITS.call_timeout_ms,
      approval: options.approval,
      ...(stop === undefined ? { slots } : { stop }),
    });
    servers.add(server);
    server.onclose = () => servers.delete(server);
    return server;
  };
  let removeInterrupt = () => {};
  const interrupted = new Promise<void>((resolve) => {
    removeInterrupt = onInterrupt(() => resolve());
  });
  try {
    const transport = options.transport;
    return transport.kind === "http"
      ? await serveHttp(transport, create, interrupted)
      : await serveStdio(transport, create, interrupted);
  } finally {
    removeInterrupt();
    await Promise.all([served.retire(), ...retired]);
  }
};

type HttpTransport = Extract<ServeTransport, { readonly kind: "http" }>;
type StdioTransport = Extract<ServeTransport, { readonly kind: "stdio" }>;

/**
 * Serve over Streamable HTTP until `interrupted`, a server per session from `create`; the port
 * taken or listening refused are outcomes, not errors.
 */
async function serveHttp(
  transport: HttpTransport,
  create: () => Server,
  interrupted: Promise<void>,
): Promise<ServeOutcome> {
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
  return { kind: "done" };
}

/** Serve the one stdio client until stdin ends or `interrupted`. */
async function serveStdio(
  transport: StdioTransport,
  create: (stop: AbortSignal) => Server,
  interrupted: Promise<void>,
): Promise<ServeOutcome> {
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
  return { kind: "done" };
}

/**
 * One tool set and its executor. Once retired (a reload replaced it), the executor closes
 * as soon as the calls it runs ended; calls that started on it finish on it.
 */
class Generation {
  readonly registry: ToolRegistry;
  readonly executor: Pick<ToolExecutor, "execute">;
  readonly #executor: ToolExecutor;
  #running = 0;
  #retired: PromiseWithResolvers<void> | null = null;
  #closing = false;

  constructor(registry: ToolRegistry, executor: ToolExecutor) {
    this.registry = registry;
    this.#executor = executor;
    this.executor = {
      execute: async (call, signal) => {
        this.#running++;
        try {
          return await executor.execute(call, signal);
        } finally {
          this.#running--;
          if (this.#running === 0 && this.#retired !== null) this.#close();
        }
      },
    };
  }

  /** Close the executor once no call runs on it; resolves when it closed. */
  retire(): Promise<void> {
    if (this.#retired === null) {
      // Not Promise.withResolvers: the npm package runs this on Node.js 20, which lacks it.
      let resolve!: () => void;
      const promise = new Promise<void>((done) => resolve = done);
      this.#retired = { promise, resolve, reject: () => {} };
      if (this.#running === 0) this.#close();
    }
    return this.#retired.promise;
  }

  #close(): void {
    if (this.#closing) return;
    this.#closing = true;
    const done = this.#retired!;
    this.#executor.close().then(done.resolve, done.resolve);
  }
}
