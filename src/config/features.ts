/**
 * The optional features, MCP (`src/mcp/`: configured MCP servers, `magi-tools mcp`) and OpenAPI
 * (`src/openapi/`: `openapi` sources), loaded on first use.
 *
 * No module of the core names them in a type either: the interfaces the core uses
 * ({@link McpSourceModule}, {@link OpenApiSourceModule}, and `McpServeModule` of
 * `src/mcp/serve_api.ts`) are declared without their npm packages, so neither `deno run` nor
 * `deno info` of a tool module (whose graph includes this package's `mod.ts`) reaches them.
 *
 * Each is loaded through one non-literal dynamic import (`_feature_import.ts`), so their npm
 * packages (the MCP SDK; the OpenAPI reference parser, YAML parser and validator) are not in the
 * module graph a command builds at startup: a command that configures no such source neither
 * downloads them nor needs them in its lockfile.
 *
 * In a magi-tools checkout the root `deno.lock` (frozen) holds only the demo's and core's
 * packages; the full CLI runs with `deno.full.lock` (`deno task start`). Run with the root
 * lockfile, a feature fails to load with Deno's "lockfile is out of date"; {@link loadMcp} and
 * {@link loadOpenApi} turn that into a {@link FeatureUnavailableError} (exit 2) that names the
 * lockfile and the command to use (docs/packages.md).
 *
 * @module
 */

import type { ExternalTool } from "../host/external.ts";
import { importFeature } from "./_feature_import.ts";
import type { McpServerConfig } from "./mcp_servers.ts";
import type { OpenApiConfig } from "./openapi.ts";

/** The optional features. */
export type Feature = "mcp" | "openapi";

/** What each feature needs, for messages. */
const NEEDS: Readonly<Record<Feature, string>> = {
  mcp: "the MCP SDK (npm:@modelcontextprotocol/sdk, src/mcp/_sdk.ts)",
  openapi: "the OpenAPI packages (src/openapi/_deps.ts)",
};

/**
 * A feature's npm packages are missing from the lockfile the process runs with (exit 2). The
 * message names the feature's packages, the lockfile to use and the command.
 */
export class FeatureUnavailableError extends Error {
  /** The feature that could not load. */
  readonly feature: Feature;

  /** `feature` failed to load; `cause` is the runtime's error. */
  constructor(feature: Feature, cause: unknown) {
    super(
      `${feature === "mcp" ? "MCP" : "OpenAPI"} needs ${NEEDS[feature]}, which is not in the ` +
        "lockfile this process runs with. In a magi-tools checkout deno.lock holds only the " +
        "demo's packages: run the full CLI with `deno task start …` (it uses deno.full.lock), " +
        "or add --lock=deno.full.lock to `deno run` (docs/packages.md)",
      { cause },
    );
    this.name = "FeatureUnavailableError";
    this.feature = feature;
  }
}

/** Deno's error for a module whose npm packages the frozen lockfile lacks. */
function isLockfileOutOfDate(error: unknown): boolean {
  return error instanceof Error && /lockfile is out of date/i.test(error.message);
}

/**
 * Import the entry module (`mod.ts`) of `feature`. Callers above `src/mcp/` in the layers
 * (docs/architecture.md) type it as `typeof import("../mcp/mod.ts")`; the config layer, below
 * it, uses {@link loadMcp}.
 *
 * @throws {FeatureUnavailableError} when the lockfile lacks the feature's packages.
 */
export async function loadFeature(feature: Feature): Promise<unknown> {
  try {
    return await importFeature(feature);
  } catch (error) {
    if (isLockfileOutOfDate(error)) throw new FeatureUnavailableError(feature, error);
    throw error;
  }
}

/** Options of `startMcpSource` (src/mcp/source.ts). */
export interface McpSourceOptions {
  /** Working directory of stdio servers without their own `cwd`. */
  readonly cwd: string;
  /** How long connecting and listing may take, ms; default 60,000 (`npx` may download first). */
  readonly startTimeoutMs?: number;
  /** Called once when the server exits (or its connection closes) before `McpSource.close`. */
  readonly onExit?: (server: string, message: string) => void;
  /** Stops start-up (e.g. Ctrl-C). */
  readonly signal?: AbortSignal;
}

/** A connected MCP server and its tools. */
export interface McpSource {
  /** The `mcpServers` key. */
  readonly name: string;
  /** Its kept tools, as external tools. */
  readonly tools: readonly ExternalTool[];
  /** Disconnect and reap the server process. Never rejects. */
  close(): Promise<void>;
}

/**
 * What the config layer uses of `src/mcp/` to start configured servers. It is declared here
 * because `src/mcp/` sits above `src/config/` (its modules import the config's types), so a
 * type-only import the other way would be a cycle; `tests/config/features_test.ts` checks that
 * `src/mcp/mod.ts` provides it.
 */
export interface McpSourceModule {
  /** Start one configured server and list its tools (src/mcp/source.ts). */
  startMcpSource(server: McpServerConfig, options: McpSourceOptions): Promise<McpSource>;
}

/**
 * Load `src/mcp/` for starting configured servers.
 *
 * @throws {FeatureUnavailableError} when the lockfile lacks the MCP SDK.
 */
export function loadMcp(): Promise<McpSourceModule> {
  return loadFeature("mcp") as Promise<McpSourceModule>;
}

/** An operation an `openapi` source left out because it cannot be mapped. */
export interface SkippedOperationInfo {
  /** The API's config key. */
  readonly api: string;
  /** The document, as configured. */
  readonly file: string;
  /** JSON pointer of the part at fault. */
  readonly pointer: string;
  /** Why. */
  readonly reason: string;
}

/**
 * What the config layer uses of `src/openapi/` to start `openapi` sources. Declared here, not
 * taken as `typeof import("../openapi/mod.ts")`, so that the type graph of this package's public
 * modules (which tool processes import as `@magi/tools`) does not reach the OpenAPI npm packages:
 * the sandbox computes a tool's module files with `deno info`, which resolves types too, under
 * the frozen root lockfile. `tests/config/features_test.ts` checks that `src/openapi/mod.ts`
 * provides it.
 */
export interface OpenApiSourceModule {
  /** Start one `openapi` entry: its tools, and `close` (src/openapi/source.ts). */
  startOpenApiSource(
    api: OpenApiConfig,
    options: {
      readonly cwd?: string;
      readonly onSkipped?: (skipped: SkippedOperationInfo) => void;
    },
  ): Promise<{ readonly tools: readonly ExternalTool[]; close(): Promise<void> }>;
}

/**
 * Load `src/openapi/` for starting `openapi` sources.
 *
 * @throws {FeatureUnavailableError} when the lockfile lacks the OpenAPI packages.
 */
export function loadOpenApi(): Promise<OpenApiSourceModule> {
  return loadFeature("openapi") as Promise<OpenApiSourceModule>;
}
