/**
 * Start and stop the tool sources a {@link HostConfig} names, for every front
 * door (`run`, `tools`, `mcp`). Sources start in parallel (and in parallel
 * with the backend, which the caller started first). A source that fails to
 * start fails the whole start with a {@link SourceStartError} (exit 2) naming
 * it and why, unless it is `optional`: then `onWarning` gets a
 * `source_unavailable` warning and its tools are absent.
 *
 * A new kind of source (e.g. `openapi`) adds one starter to
 * {@link startSources}' list; the registry and executor need nothing new.
 *
 * @module
 */

import type { ExternalTool } from "../host/external.ts";
import type { HostConfig } from "./mod.ts";

/** A warning a source raises (`host.warning`). */
export interface SourceWarning {
  /** `source_unavailable` (an optional source did not start) or `source_exited`. */
  readonly code: "source_unavailable" | "source_exited";
  /** What happened, naming the source. */
  readonly message: string;
  /** `<kind>:<name>`, e.g. `mcp:fs`. */
  readonly source: string;
}

/** Options of {@link startSources}. */
export interface StartSourcesOptions {
  /** Working directory of local servers. */
  readonly cwd: string;
  /** Receives warnings (start of an optional source failed, a source exited). */
  readonly onWarning: (warning: SourceWarning) => void;
  /** Stops start-up. */
  readonly signal?: AbortSignal;
  /** Start time limit per source, ms (default: the source's own). */
  readonly startTimeoutMs?: number;
}

/** The started sources: their tools and one way to stop them all. */
export interface StartedSources {
  /** Every started source's tools, in config order. */
  readonly tools: readonly ExternalTool[];
  /** Stop every source and reap its processes. Never rejects. */
  close(): Promise<void>;
}

/** A required source did not start; the message names it and the reason. */
export class SourceStartError extends Error {
  /** Message as given. */
  constructor(message: string) {
    super(message);
    this.name = "SourceStartError";
  }
}

/** Nothing configured: no tools, nothing to stop. */
export const NO_SOURCES: StartedSources = Object.freeze({
  tools: [],
  close: () => Promise.resolve(),
});

interface Started {
  readonly tools: readonly ExternalTool[];
  close(): Promise<void>;
}

interface Pending {
  readonly source: string;
  readonly optional: boolean;
  readonly started: Promise<Started>;
}

/**
 * Start every enabled source of `config` in parallel.
 *
 * @throws {SourceStartError} for the first (in config order) required source
 * that failed; every source that did start is closed first.
 */
export async function startSources(
  config: HostConfig,
  options: StartSourcesOptions,
): Promise<StartedSources> {
  const servers = config.mcpServers.filter((server) => server.enabled);
  if (servers.length === 0) return NO_SOURCES;
  // Loaded only when a server is configured: the SDK is not needed otherwise.
  const { startMcpSource } = await import("../mcp/source.ts");
  const pending: Pending[] = servers.map((server) => ({
    source: `mcp:${server.name}`,
    optional: server.optional,
    started: startMcpSource(server, {
      cwd: options.cwd,
      onExit: (name, message) =>
        options.onWarning({ code: "source_exited", message, source: `mcp:${name}` }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
    }),
  }));
  const settled = await Promise.allSettled(pending.map((entry) => entry.started));
  const started: Started[] = [];
  let failure: string | null = null;
  for (const [index, outcome] of settled.entries()) {
    const entry = pending[index]!;
    if (outcome.status === "fulfilled") {
      started.push(outcome.value);
      continue;
    }
    const message = outcome.reason instanceof Error
      ? outcome.reason.message
      : String(outcome.reason);
    if (entry.optional) {
      options.onWarning({
        code: "source_unavailable",
        message: `${message}; it is optional, so its tools are absent`,
        source: entry.source,
      });
    } else {
      failure ??= message;
    }
  }
  const close = async () => {
    await Promise.all(started.map((source) => source.close().catch(() => {})));
  };
  if (failure !== null) {
    await close();
    throw new SourceStartError(failure);
  }
  return { tools: started.flatMap((source) => source.tools), close };
}
