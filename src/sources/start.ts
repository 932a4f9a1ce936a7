/**
 * Start and stop the tool sources a {@link HostConfig} names, for every front
 * door (`run`, `tools`, `mcp`). Sources start in parallel (and in parallel
 * with the backend, which the caller started first). A source that fails to
 * start fails the whole start with a {@link SourceStartError} (exit 2) naming
 * it and why, unless it is `optional`: then `onWarning` gets a
 * `source_unavailable` warning and its tools are absent.
 *
 * A new kind of source adds one starter to {@link startSources}' list (as
 * `openapi` does); the registry and executor need nothing new.
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";
import { writeStderrLine } from "../runtime/mod.ts";
import type { ExternalTool } from "../tool/external.ts";
import { checkDestination } from "../config/trust.ts";
import { loadMcp, loadOpenApi } from "./features.ts";
import type { HostConfig } from "../config/mod.ts";
import type { OpenApiConfig } from "../config/openapi.ts";

/** A warning a source raises (`host.warning`). */
export interface SourceWarning {
  /**
   * `source_unavailable` (an optional source did not start), `source_exited`, or
   * `operation_skipped` (an OpenAPI operation matched by a glob that cannot be mapped).
   */
  readonly code: "source_unavailable" | "source_exited" | "operation_skipped";
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
  /**
   * An MCP server changed its tools (`notifications/tools/list_changed`):
   * {@link StartedSources.tools} holds the new ones. A list that cannot be used keeps the old
   * tools, with the reason on stderr.
   */
  readonly onToolsChanged?: () => void;
  /**
   * When given, a required MCP server that needs `magi-tools login NAME` does not fail the start:
   * it is left out and reported here (`inspect` shows it on its page).
   */
  readonly onSignInNeeded?: (source: string, message: string) => void;
}

/** The started sources: their tools and one way to stop them all. */
export interface StartedSources {
  /** Every started source's tools, in config order (the latest lists: see `onToolsChanged`). */
  readonly tools: readonly ExternalTool[];
  /** Stop every source and reap its processes. Never rejects. */
  close(): Promise<void>;
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
 * Whether `config` declares a tool source: an enabled MCP server (an
 * `optional` one counts, whether or not it will start) or an OpenAPI API.
 *
 * @example
 * ```ts
 * import { hasToolSources } from "./start.ts";
 * import { EMPTY_CONFIG } from "../config/mod.ts";
 * console.assert(!hasToolSources(EMPTY_CONFIG));
 * ```
 */
export function hasToolSources(config: HostConfig): boolean {
  return config.mcpServers.some((server) => server.enabled) || config.openapi.length > 0;
}

/**
 * Start every enabled source of `config` in parallel.
 *
 * @throws {SourceStartError} for the first (in config order) required source
 * that failed; every source that did start is closed first.
 * @throws {FeatureUnavailableError} when a configured source's feature (MCP,
 * OpenAPI) cannot load because the lockfile lacks its npm packages.
 */
export async function startSources(
  config: HostConfig,
  options: StartSourcesOptions,
): Promise<StartedSources> {
  if (!hasToolSources(config)) return NO_SOURCES;
  const servers = config.mcpServers.filter((server) => server.enabled);
  const pending: Pending[] = [];
  if (servers.length > 0) {
    // Loaded only when a server is configured: the SDK is not needed otherwise.
    const { startMcpSource } = await loadMcp();
    pending.push(...servers.map((server) => ({
      source: `mcp:${server.name}`,
      optional: server.optional,
      started: startMcpSource(server, {
        cwd: options.cwd,
        onExit: (name, message) =>
          options.onWarning({ code: "source_exited", message, source: `mcp:${name}` }),
        ...(options.onToolsChanged === undefined ? {} : { onToolsChanged: options.onToolsChanged }),
        onListFailed: (_name, message) => writeStderrLine(`magi-tools: ${message}`),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.startTimeoutMs === undefined ? {} : { startTimeoutMs: options.startTimeoutMs }),
      }),
    })));
  }
  if (config.openapi.length > 0) pending.push(...await openApiPending(config, options));
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
    if (
      !entry.optional && options.onSignInNeeded !== undefined &&
      (outcome.reason as { signIn?: unknown } | null)?.signIn === true
    ) {
      options.onSignInNeeded(entry.source, message);
    } else if (entry.optional) {
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
    // A required source did not start; the message names it and the reason.
    throw new HostError("source_start", failure);
  }
  return {
    get tools() {
      return started.flatMap((source) => source.tools);
    },
    close,
  };
}

/** One pending start per `openapi` entry (the OpenAPI modules load only when one is configured). */
async function openApiPending(
  config: HostConfig,
  options: StartSourcesOptions,
): Promise<Pending[]> {
  const { startOpenApiSource } = await loadOpenApi();
  return config.openapi.map((api) => ({
    source: `openapi:${api.name}`,
    optional: false,
    started: pinned(
      config,
      api,
      startOpenApiSource(api, {
        cwd: options.cwd,
        onSkipped: (skipped) =>
          options.onWarning({
            code: "operation_skipped",
            message:
              `${skipped.file}: ${skipped.pointer}: ${skipped.reason}; the operation has no tool`,
            source: `openapi:${api.name}`,
          }),
      }),
    ),
  }));
}

/**
 * `started`, unless the trust store approved the config and this API's
 * secret now goes somewhere else than recorded: then it is closed and the
 * start fails with "changed since you trusted it" (`src/config/trust.ts`). Only a
 * destination the config's text does not decide is checked (no `baseUrl`;
 * with client credentials, no `tokenUrl`): the approved hash covers the rest.
 * Nothing is sent before this check (a token is asked for at the first call).
 */
async function pinned(
  config: HostConfig,
  api: OpenApiConfig,
  started: Promise<Started & { readonly baseUrl: string; readonly tokenUrl?: string }>,
): Promise<Started> {
  const source = await started;
  const cc = api.clientCredentials;
  if (config.pins === undefined || (api.auth === undefined && cc === undefined)) return source;
  try {
    if (api.baseUrl === undefined) {
      checkDestination(
        config.pins,
        `openapi.${api.name}`,
        source.baseUrl,
        `the first servers entry of ${api.spec}`,
      );
    }
    if (cc !== undefined && cc.tokenUrl === undefined && source.tokenUrl !== undefined) {
      checkDestination(
        config.pins,
        `openapi.${api.name}.tokenUrl`,
        source.tokenUrl,
        `the oauth2 clientCredentials flow of ${api.spec}`,
      );
    }
  } catch (error) {
    await source.close().catch(() => {});
    throw error;
  }
  return source;
}
