/**
 * OpenAPI documents as a tool source: the `openapi` section of
 * `magi-tools.jsonc` → one {@link ExternalTool} per selected operation, whose
 * calls run as HTTP requests in a sandboxed Deno child that may reach only the
 * API's host and port. See docs/openapi.md for the config, the mapping rules
 * and the limits.
 *
 * @example
 * ```ts ignore
 * import { loadOpenApiTools, parseOpenApiSection } from "./mod.ts";
 * const apis = parseOpenApiSection(config["openapi"], "/work/magi-tools.jsonc");
 * const source = await loadOpenApiTools(apis);
 * try {
 *   console.log(source.tools.map((tool) => `${tool.name} (${tool.effect})`));
 * } finally {
 *   await source.close();
 * }
 * ```
 *
 * @module
 */

export type { ExternalTool } from "../tool/external.ts";
export {
  API_NAME_PATTERN,
  DEFAULT_TIMEOUT_MS,
  type OpenApiAuth,
  type OpenApiConfig,
  parseOpenApiSection,
} from "./config.ts";
export { OpenApiError } from "./errors.ts";
export type { OperationPlan } from "./operations.ts";
export {
  type LoadOpenApiOptions,
  loadOpenApiTools,
  openApiDestination,
  type OpenApiTools,
  type SkippedOperation,
  type StartOpenApiOptions,
  startOpenApiSource,
} from "./source.ts";
