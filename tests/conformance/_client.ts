/**
 * The project's own client (`LocalAgentClient`) over pipes to a backend (a child, or the
 * reference backend served in-process: `_transport.ts`): the client is the checker here (the
 * backend's self-check is off, as in production).
 *
 * @module
 */

import { LocalAgentClient } from "../../src/client/client.ts";
import type { ClientOptions } from "../../src/client/connection.ts";
import { Workspace } from "./_harness.ts";
import { startTransport } from "./_transport.ts";

/** A backend driven by the project's client. */
export interface ClientChild {
  /** The client. */
  readonly client: LocalAgentClient;
  /** The child's workspace. */
  readonly workspace: Workspace;
  /** The child's stderr so far. */
  stderr(): string;
  /** The child's exit status. */
  readonly status: Promise<Deno.CommandStatus>;
  /**
   * Close the client, end the backend (EOF, then SIGKILL after 5 s), wait for everything it
   * started and remove the workspace.
   */
  dispose(): Promise<void>;
}

/** Options of {@link spawnClient}. */
export interface SpawnClientOptions {
  /** Extra environment of the child. */
  env?: Record<string, string>;
  /** Start a child process even for the reference backend. */
  process?: boolean;
  /**
   * Prepare the workspace before the child starts (settings, sessions, a scenario); may
   * return more environment for the child (e.g. `MAGI_SCENARIO`).
   */
  prepare?: (ws: Workspace) => Promise<Record<string, string> | void>;
  /** Client options. */
  client?: ClientOptions;
  /** Wrap the child's stdout (e.g. a slow reader). */
  stdout?: (stream: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>;
  /** Wrap the child's stdin (e.g. to watch the request frames). */
  stdin?: (stream: WritableStream<Uint8Array>) => WritableStream<Uint8Array>;
}

/** Start a backend in a fresh workspace and connect the project's client to it. */
export async function spawnClient(options: SpawnClientOptions = {}): Promise<ClientChild> {
  const ws = await Workspace.create();
  const prepared = await options.prepare?.(ws);
  const child = await startTransport({
    cwd: ws.cwd,
    env: { HOME: ws.home, MC_HOME: ws.mcHome, ...options.env, ...prepared },
    noSelfCheck: true,
    ...(options.process === undefined ? {} : { process: options.process }),
  });
  const stderrChunks: string[] = [];
  const stderrDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (chunk) => void stderrChunks.push(chunk) }),
  ).catch(() => {});
  const exited = child.status.then((s) => ({ code: s.code, signal: s.signal ?? null }));
  const stdout = options.stdout?.(child.stdout) ?? child.stdout;
  const stdin = options.stdin?.(child.stdin) ?? child.stdin;
  const client = new LocalAgentClient({ stdin, stdout, exited }, options.client);
  return {
    client,
    workspace: ws,
    stderr: () => stderrChunks.join(""),
    status: child.status,
    async dispose() {
      await client.close().catch(() => {});
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, 5_000);
      await child.status;
      clearTimeout(timer);
      await child.finished();
      await stderrDone;
      await ws.dispose();
    },
  };
}
