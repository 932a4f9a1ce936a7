/**
 * Starting the backend process early: `run` spawns it before the host's
 * modules and the tool modules are loaded, so the backend's own start
 * overlaps them (the `initialize` request, which needs the registry, is sent
 * later). Lean on purpose: runtime adapter only.
 *
 * @module
 */

import { type ChildHandle, reapChild, spawnChild } from "../runtime/mod.ts";
import type { AgentCommand } from "./agent.ts";

/** A started backend, or why it could not be started (reported by `runBackend`). */
export type BackendStart =
  | { readonly child: ChildHandle; readonly error?: undefined }
  | { readonly child?: undefined; readonly error: unknown };

/** Options of {@link startBackend}. */
export interface BackendStartOptions {
  /** Working directory of the backend. */
  readonly cwd: string;
  /** Extra environment for the backend. */
  readonly env?: Record<string, string>;
}

/** Spawn `agent` now; never throws (a spawn failure is returned as `error`). */
export function startBackend(agent: AgentCommand, options: BackendStartOptions): BackendStart {
  try {
    return {
      child: spawnChild(agent.command, agent.args, {
        cwd: options.cwd,
        ...(options.env === undefined ? {} : { env: options.env }),
      }),
    };
  } catch (error) {
    return { error };
  }
}

/**
 * Stop a backend that will not be used (the tools failed to load before
 * `initialize`): EOF, then SIGTERM and SIGKILL after short graces; waits for
 * its exit. Never rejects.
 */
export async function discardBackend(start: BackendStart): Promise<void> {
  if (start.child === undefined) return;
  await reapChild(start.child, { closeGraceMs: 1_000, termGraceMs: 1_000 });
}
