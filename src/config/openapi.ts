/**
 * The `openapi` section of `magi-tools.jsonc`, checked by the OpenAPI
 * source's own parser (`src/openapi/config.ts`); its errors become
 * {@link ConfigError}s with the same `file: key.path: reason` text.
 *
 * @module
 */

import { OpenApiError } from "../openapi/errors.ts";
import { type OpenApiConfig, parseOpenApiSection } from "../openapi/config.ts";
import type { At } from "./_check.ts";
import { ConfigError } from "./errors.ts";

export type { OpenApiConfig } from "../openapi/config.ts";

/** The checked `openapi` entries of the file `at` names, in file order. */
export function parseOpenApi(value: unknown, at: At): OpenApiConfig[] {
  try {
    return parseOpenApiSection(value, at.file);
  } catch (error) {
    if (error instanceof OpenApiError) throw new ConfigError(error.message);
    throw error;
  }
}
