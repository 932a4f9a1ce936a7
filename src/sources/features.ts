/**
 * The optional features, MCP (`src/mcp/`: configured MCP servers, `magi-tools mcp`) and OpenAPI
 * (`src/openapi/`: `openapi` sources), loaded on first use.
 *
 * Each is loaded through one non-literal dynamic import (`_feature_import.ts`), so their npm
 * packages (the MCP SDK; the OpenAPI reference parser, YAML parser and validator) are not in the
 * module graph a command builds at startup: a command that configures no such source neither
 * downloads them nor needs them in its lockfile. No module of the core names them in a type
 * either: the interfaces the core uses ({@link McpSourceModule}, {@link OpenApiSourceModule}, and
 * `McpServeModule` of `src/mcp/serve_api.ts`) are declared without their npm packages, so neither
 * `deno run` nor `deno info` of a tool module (whose graph includes this package's `mod.ts`)
 * reaches them.
 *
 * In a magi-tools checkout the root `deno.lock` (frozen) holds only the demo's and core's
 * packages; the full CLI runs with `deno.full.lock` (`deno task start`). Run with the root
 * lockfile, a feature fails to load with Deno's "lockfile is out of date"; and a non-literal import
 * of local files is checked against `--allow-read`. {@link loadFeature} turns both into a
 * {@link FeatureUnavailableError} (exit 2) that says what to do (docs/packages.md).
 *
 * The npm package declares the features' packages ({@link FEATURE_PACKAGES}) as optional peer
 * dependencies, which neither npm nor Deno installs with it: when one is missing, loading the
 * feature fails with a {@link FeatureUnavailableError} (`packages`) naming the packages and the
 * `npm install` or `deno add` command for the runtime.
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";
import type { ExternalTool } from "../tool/external.ts";
import type { McpSource, McpSourceOptions } from "../tool/source.ts";
import { importFeature } from "./_feature_import.ts";
import type { McpServerConfig } from "../config/mcp_servers.ts";
import type { OpenApiConfig } from "../config/openapi.ts";

/** The optional features. */
export type Feature = "mcp" | "openapi";

/** What each feature needs, for messages. */
const NEEDS: Readonly<Record<Feature, string>> = {
  mcp: "the MCP SDK (npm:@modelcontextprotocol/sdk, src/mcp/_sdk.ts)",
  openapi: "the OpenAPI packages (src/openapi/_deps.ts)",
};

/**
 * The npm packages of each feature, as `name@range` (the pinned specifiers of src/mcp/_sdk.ts and
 * src/openapi/_deps.ts; `tests/sources/features_test.ts` keeps them equal). The npm package
 * declares them as optional peer dependencies: a project that uses the feature installs them.
 */
export const FEATURE_PACKAGES: Readonly<Record<Feature, readonly string[]>> = {
  mcp: ["@modelcontextprotocol/sdk@1.32.2"],
  openapi: ["@apidevtools/json-schema-ref-parser@^16.0.5", "ajv@^8.20.0", "js-yaml@^5.5.0"],
};

/**
 * Why a feature could not load: its packages are not locked, its modules may not be read, or
 * (the npm package) its optional packages are not installed.
 */
export type FeatureProblem = "lockfile" | "read_permission" | "packages";

/** The command that installs `feature`'s packages into the project, for this runtime. */
export function featureInstallCommand(feature: Feature): string {
  const quote = (spec: string) => /[\^~<>|* ]/.test(spec) ? `'${spec}'` : spec;
  return "Deno" in globalThis
    ? `deno add ${FEATURE_PACKAGES[feature].map((spec) => quote(`npm:${spec}`)).join(" ")}`
    : `npm install ${FEATURE_PACKAGES[feature].map(quote).join(" ")}`;
}

/** The message of {@link FeatureUnavailableError}. */
function problemMessage(feature: Feature, problem: FeatureProblem, cause: unknown): string {
  switch (problem) {
    case "lockfile":
      return `${title(feature)} needs ${NEEDS[feature]}, which is not in the ` +
        "lockfile this process runs with. In a magi-tools checkout deno.lock holds only the " +
        "demo's packages: run the full CLI with `deno task start …` (it uses deno.full.lock), " +
        "or add --lock=deno.full.lock to `deno run` (docs/packages.md)";
    case "read_permission":
      return `${title(feature)} is loaded from ${sourceDir()} on first use, and this process may ` +
        `not read it (${cause instanceof Error ? cause.message : String(cause)}): add ` +
        `${sourceDir()} to --allow-read (docs/packages.md)`;
    case "packages":
      return `${title(feature)} needs the npm package${
        FEATURE_PACKAGES[feature].length > 1 ? "s" : ""
      } ${FEATURE_PACKAGES[feature].join(", ")}, optional dependencies of @magi/tools that ` +
        `this project has not installed: run \`${featureInstallCommand(feature)}\` in the ` +
        "project (docs/packages.md)";
  }
}

/** The name of `feature` in messages. */
function title(feature: Feature): string {
  return feature === "mcp" ? "MCP" : "OpenAPI";
}

/** magi-tools' own `src/` (a path for local files, else the URL): what loading a feature reads. */
function sourceDir(): string {
  const url = new URL("../", import.meta.url);
  return url.protocol === "file:" ? decodeURIComponent(url.pathname) : url.href;
}

/**
 * A feature could not load (exit 2): the lockfile the process runs with lacks its npm packages
 * (`problem` `lockfile`: the message names the packages, the lockfile to use and the command), or
 * the process may not read its modules (`read_permission`: a non-literal import is checked
 * against `--allow-read`; the message names the directory to grant).
 */
export class FeatureUnavailableError extends HostError<"feature_unavailable"> {
  /** The feature that could not load. */
  readonly feature: Feature;
  /** Why. */
  readonly problem: FeatureProblem;

  /** `feature` failed to load for `problem`; `cause` is the runtime's error. */
  constructor(feature: Feature, problem: FeatureProblem, cause: unknown) {
    super("feature_unavailable", problemMessage(feature, problem, cause), { cause });
    this.name = "FeatureUnavailableError";
    this.feature = feature;
    this.problem = problem;
  }
}

/** What went wrong, when `error` is one of the runtime's errors {@link loadFeature} explains. */
function problemOf(feature: Feature, error: unknown): FeatureProblem | null {
  if (!(error instanceof Error)) return null;
  if (/lockfile is out of date/i.test(error.message)) return "lockfile";
  if (/^Requires read access to /.test(error.message)) return "read_permission";
  // Node.js: ERR_MODULE_NOT_FOUND "Cannot find package 'x' imported from …"; Deno (the package
  // from npm): "Could not find package 'x' …" / "… not found" naming the package.
  const names = FEATURE_PACKAGES[feature].map((spec) => spec.replace(/(?<=.)@.*$/, ""));
  if (
    /cannot find (package|module)|could not find|not found|ERR_MODULE_NOT_FOUND/i.test(
      error.message + String((error as { code?: unknown }).code ?? ""),
    ) && names.some((name) => error.message.includes(name))
  ) return "packages";
  return null;
}

/**
 * Import the entry module (`mod.ts`) of `feature`. The CLI types it with an interface declared
 * without the feature's npm packages (`McpServeModule` of `src/mcp/serve_api.ts`); the
 * sources' starter (`start.ts`) uses {@link loadMcp} and {@link loadOpenApi}.
 *
 * @throws {FeatureUnavailableError} when the lockfile lacks the feature's packages or the
 * process may not read its modules.
 */
export async function loadFeature(feature: Feature): Promise<unknown> {
  try {
    return await importFeature(feature);
  } catch (error) {
    const problem = problemOf(feature, error);
    if (problem !== null) throw new FeatureUnavailableError(feature, problem, error);
    throw error;
  }
}

export type { McpSource, McpSourceOptions } from "../tool/source.ts";

/**
 * What starting the sources uses of `src/mcp/` to start configured servers. Declared here, not
 * taken as `typeof import("../mcp/mod.ts")`, so that no type graph of the core reaches the MCP
 * SDK (as {@link OpenApiSourceModule}); `tests/sources/features_test.ts` checks that
 * `src/mcp/mod.ts` provides it.
 */
export interface McpSourceModule {
  /** Start one configured server and list its tools (src/mcp/source.ts). */
  startMcpSource(server: McpServerConfig, options: McpSourceOptions): Promise<McpSource>;
}

/**
 * Load `src/mcp/` for starting configured servers.
 *
 * @throws {FeatureUnavailableError} when the lockfile lacks the MCP SDK, or `src/` may not be
 * read.
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
 * What starting the sources uses of `src/openapi/` to start `openapi` sources. Declared here, not
 * taken as `typeof import("../openapi/mod.ts")`, so that the type graph of this package's public
 * modules (which tool processes import as `@magi/tools`) does not reach the OpenAPI npm packages:
 * the sandbox computes a tool's module files with `deno info`, which resolves types too, under
 * the frozen root lockfile. `tests/sources/features_test.ts` checks that `src/openapi/mod.ts`
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
  ): Promise<
    {
      readonly tools: readonly ExternalTool[];
      readonly baseUrl: string;
      readonly tokenUrl?: string;
      close(): Promise<void>;
    }
  >;
  /**
   * Where one entry's requests and secret go (`baseUrl`), and with client credentials where
   * they go (`tokenUrl`), without starting it (src/openapi/source.ts).
   */
  openApiDestination(
    api: OpenApiConfig,
    options: { readonly cwd?: string },
  ): Promise<{ readonly baseUrl: string; readonly tokenUrl?: string }>;
}

/**
 * Load `src/openapi/` for starting `openapi` sources.
 *
 * @throws {FeatureUnavailableError} when the lockfile lacks the OpenAPI packages, or `src/` may
 * not be read.
 */
export function loadOpenApi(): Promise<OpenApiSourceModule> {
  return loadFeature("openapi") as Promise<OpenApiSourceModule>;
}
