/**
 * The project's own client (`LocalAgentClient`) over real pipes to a backend child: the
 * client is the checker here (the backend's self-check is off, as in production).
 *
 * @module
 */

import { LocalAgentClient } from "../../src/client/client.ts";
import type { ClientOptions } from "../../src/client/connection.ts";
import { backendCommand, baseEnv } from "./_command.ts";
import { Workspace } from "./_harness.ts";

/** A backend child driven by the project's client. */
export interface ClientChild {
  /** The client. */
  readonly client: LocalAgentClient;
  /** The child's workspace. */
  readonly workspace: Workspace;
  /** The child's stderr so far. */
  stderr(): string;
  /** The child's exit status. */
  readonly status: Promise<Deno.CommandStatus>;
  /** Close the client, end the child (EOF, then SIGKILL after 5 s) and remove the workspace. */
  dispose(): Promise<void>;
}

/** Options of {@link spawnClient}. */
export interface SpawnClientOptions {
  /** Extra environment of the child. */
  env?: Record<string, string>;
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

/** Spawn a backend child in a fresh workspace and connect the project's client to it. */
export async function spawnClient(options: SpawnClientOptions = {}): Promise<ClientChild> {
  const ws = await Workspace.create();
  const prepared = await options.prepare?.(ws);
  const [program, ...args] = backendCommand();
  const env: Record<string, string> = { ...Deno.env.toObject(), ...baseEnv() };
  delete env.MAGI_SCENARIO;
  delete env.RUST_BACKTRACE;
  delete env.MAGI_BACKEND_SELF_CHECK;
  Object.assign(env, { HOME: ws.home, MC_HOME: ws.mcHome }, options.env ?? {}, prepared ?? {});
  const child = new Deno.Command(program!, {
    args,
    cwd: ws.cwd,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
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
      await stderrDone;
      await ws.dispose();
    },
  };
}
