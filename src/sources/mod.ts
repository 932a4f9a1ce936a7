/**
 * Starting a config's tool sources (`start.ts`: MCP servers and OpenAPI documents, in parallel,
 * optional ones turned into warnings) and the optional features they need, each loaded on first
 * use through one non-literal dynamic import (`features.ts`, `_feature_import.ts`; the npm build
 * swaps in `_feature_import_npm.ts`), so a command without such a source never resolves their npm
 * packages. Above `src/mcp/` and `src/openapi/`, which it loads; the contract a started source
 * keeps is `src/tool/source.ts`.
 *
 * @module
 */

export {
  type Feature,
  type FeatureProblem,
  FeatureUnavailableError,
  loadFeature,
  loadMcp,
  loadOpenApi,
  type McpSourceModule,
  type OpenApiSourceModule,
  type SkippedOperationInfo,
} from "./features.ts";
export {
  hasToolSources,
  NO_SOURCES,
  type SourceWarning,
  type StartedSources,
  startSources,
  type StartSourcesOptions,
} from "./start.ts";
