/**
 * Shared setup for the sandbox tests: the fixture tools, registered, and an
 * executor with a short grace period whose logs are collected.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { loadToolDirs } from "../../src/toolset/discovery.ts";
import { type ToolCallResult, ToolExecutor, type ToolLog } from "../../src/call/executor.ts";
import { ToolRegistry } from "../../src/toolset/registry.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";
import type { ProcessLimits } from "../../src/sandbox/containment.ts";
import { waitWithin } from "../../src/async/deadline.ts";

/**
 * Process limits without a PID namespace: a terminal's Ctrl-C (SIGINT) then reaches the
 * tool process itself, which the Ctrl-C tests need (inside a namespace the tool process is
 * its init, which ignores a SIGINT it has no handler for).
 */
export const NO_NAMESPACE: ProcessLimits = {
  memory: "rlimit",
  descendants: "process_group",
  reason: "test: no PID namespace",
  wrapper: [],
};

/** The fixtures directory. */
export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** Grace period used by these tests, ms. */
export const GRACE_MS = 300;

/** An executor over the fixture tools plus helpers; `close()` it in `finally`. */
export interface Sandbox {
  readonly executor: ToolExecutor;
  readonly logs: ToolLog[];
  call(
    name: string,
    args: unknown,
    options?: { deadlineMs?: number; signal?: AbortSignal },
  ): Promise<
    ToolCallResult
  >;
  close(): Promise<void>;
}

let counter = 0;

/** Load the fixtures and build an executor. */
export async function sandbox(
  options: { denoPath?: string; kernelSandbox?: "auto" | "off"; processLimits?: ProcessLimits } =
    {},
): Promise<Sandbox> {
  const registry = ToolRegistry.fromLoaded(await loadToolDirs([FIXTURES]));
  const logs: ToolLog[] = [];
  const executor = new ToolExecutor(registry, {
    limits: { ...CLIENT_TOOLS_LIMITS, cancel_grace_ms: GRACE_MS },
    cwd: Deno.cwd(),
    onLog: (log) => logs.push(log),
    ...options,
  });
  return {
    executor,
    logs,
    call(name, args, options = {}) {
      const entry = registry.get(name);
      if (entry === undefined) throw new Error(`No fixture tool ${name}`);
      return executor.execute({
        callId: `call-${++counter}`,
        name,
        toolId: entry.toolId,
        arguments: args,
        deadlineMs: options.deadlineMs ?? 20_000,
        sessionId: "session-1",
        runId: "run-1",
      }, options.signal ?? new AbortController().signal);
    },
    close: () => executor.close(),
  };
}

/**
 * The start of a `beacon` fixture call (`fixtures/beacon.ts`): a loopback listener whose
 * {@link StartSignal.port} the call gets; the tool connects to it when its call runs, so a
 * test cancels or interrupts the call once it is under way, not after a fixed sleep. `close()`
 * it in `finally`.
 */
export class StartSignal {
  readonly #listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });

  /** The port to pass as the beacon's `port` argument. */
  get port(): number {
    return this.#listener.addr.port;
  }

  /** Resolves once a beacon call connected (it runs); throws after `ms` (a generous bound). */
  async started(ms = 30_000): Promise<void> {
    const conn = await waitWithin(this.#listener.accept(), ms);
    if (conn === undefined) throw new Error(`the beacon call did not start within ${ms} ms`);
    conn.close();
  }

  /** Stop listening. */
  close(): void {
    this.#listener.close();
  }
}
