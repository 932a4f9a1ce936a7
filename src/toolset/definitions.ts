/**
 * A tool's `client.tools` definition, checked against every bound of
 * `client-tools.md`: its input schema converted to JSON Schema (or a described
 * tool's, converted already), root an object, size and depth bounds, then the
 * wire schema as the final word; an external tool's each with the fix to name;
 * and a module tool's output schema, checked the same way. Every failure is a
 * {@link RegistryError} naming the tool and its file.
 *
 * @module
 */

import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import {
  type ClientToolDefinition,
  ClientToolDefinitionSchema,
} from "../protocol/schemas/client_tools.ts";
import { jsonDepth } from "../protocol/schemas/common.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { isTool } from "../tool/define.ts";
import { type ExternalTool, isExternalTool } from "../tool/external.ts";
import {
  type AnyTool,
  inputSchemaOf,
  type InputSchemaResult,
  toolOutputSchema,
} from "../sandbox/description.ts";
import { RegistryError } from "./registry_error.ts";

/** The fix a bound broken by an external tool names. */
const EXTERNAL_FIX =
  'exclude the tool in the config ("exclude"), or override its description ("descriptions")';

/** The fix an OpenAPI tool's broken bound names (its config has no "exclude"). */
const OPENAPI_FIX =
  'leave the operation out of the API\'s "include" in the config (see docs/openapi.md)';

/** `; fix: …` for a broken bound among `tools`: "" without external tools. */
export function fixFor(tools: readonly unknown[]): string {
  const kinds = new Set(tools.filter(isExternalTool).map((tool) => tool.source.kind));
  if (kinds.size === 0) return "";
  return `; fix: ${kinds.size === 1 && kinds.has("openapi") ? OPENAPI_FIX : EXTERNAL_FIX}`;
}

export function where(entry: { tool: { name: string }; file: string }): string {
  return `${entry.tool.name} (${entry.file})`;
}

export function definitionOf(
  tool: AnyTool | ExternalTool,
  file: string,
  describedInput?: InputSchemaResult,
): ClientToolDefinition {
  if (isExternalTool(tool)) return externalDefinitionOf(tool, file);
  const where = `${tool.name} (${file})`;
  // A described tool's schema was converted in the describe child, the same way; so was an
  // inline tool's when its module was described (`describedInput`): converting the zod schema
  // again here cost a measurable share of startup (bench/notes.md).
  const converted = isTool(tool) ? describedInput ?? inputSchemaOf(tool.input) : tool.inputSchema;
  if (converted.error !== undefined) {
    throw new RegistryError(
      `Tool input schema cannot be converted to JSON Schema: ${where}: ${converted.error}`,
    );
  }
  const schema: Record<string, unknown> = { ...converted.schema };
  delete schema["$schema"];
  if (schema["type"] !== "object") {
    throw new RegistryError(`Tool input schema root must be "type":"object": ${where}`);
  }
  const bytes = utf8ByteLength(JSON.stringify(schema));
  if (bytes > CLIENT_TOOLS_LIMITS.schema_bytes) {
    throw new RegistryError(
      `Tool input schema is too large: ${where}: ${bytes} bytes exceeds the limit of ${CLIENT_TOOLS_LIMITS.schema_bytes}`,
    );
  }
  if (jsonDepth(schema, CLIENT_TOOLS_LIMITS.schema_depth) > CLIENT_TOOLS_LIMITS.schema_depth) {
    throw new RegistryError(
      `Tool input schema is too deep: ${where}: more than ${CLIENT_TOOLS_LIMITS.schema_depth} nested containers`,
    );
  }
  return checkedDefinition(tool, schema, where);
}

/**
 * An external tool's definition. Its schema and description come from
 * someone else's server: every bound is checked here and named with the fix,
 * nothing is cut.
 */
function externalDefinitionOf(tool: ExternalTool, file: string): ClientToolDefinition {
  const at = `${tool.name} (${file})`;
  const fix = fixFor([tool]);
  const schema: Record<string, unknown> = { ...tool.inputSchema };
  delete schema["$schema"];
  if (schema["type"] !== "object") {
    throw new RegistryError(`Tool input schema root must be "type":"object": ${at}${fix}`);
  }
  const bytes = utf8ByteLength(JSON.stringify(schema));
  if (bytes > CLIENT_TOOLS_LIMITS.schema_bytes) {
    throw new RegistryError(
      `Tool input schema is too large: ${at}: ${bytes} bytes exceeds the limit of ${CLIENT_TOOLS_LIMITS.schema_bytes}${fix}`,
    );
  }
  if (jsonDepth(schema, CLIENT_TOOLS_LIMITS.schema_depth) > CLIENT_TOOLS_LIMITS.schema_depth) {
    throw new RegistryError(
      `Tool input schema is too deep: ${at}: more than ${CLIENT_TOOLS_LIMITS.schema_depth} nested containers${fix}`,
    );
  }
  const descriptionBytes = utf8ByteLength(tool.description);
  if (descriptionBytes > CLIENT_TOOLS_LIMITS.description_bytes) {
    throw new RegistryError(
      `Tool description is too long: ${at}: ${descriptionBytes} bytes exceeds the limit of ${CLIENT_TOOLS_LIMITS.description_bytes}${fix}`,
    );
  }
  return checkedDefinition(tool, schema, at, fix);
}

function checkedDefinition(
  tool: { name: string; description: string; effect: string; timeoutMs?: number | undefined },
  schema: Record<string, unknown>,
  where: string,
  fix = "",
): ClientToolDefinition {
  const candidate: Record<string, unknown> = {
    name: tool.name,
    description: tool.description,
    input_schema: schema,
    effect: tool.effect,
  };
  if (tool.timeoutMs !== undefined) candidate["timeout_ms"] = tool.timeoutMs;
  // defineTool already checked the other fields; the wire schema is the final word.
  const parsed = ClientToolDefinitionSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") ?? "";
    throw new RegistryError(
      `Tool definition is invalid: ${where}: ${path}: ${issue?.message}${fix}`,
    );
  }
  return Object.freeze(parsed.data);
}

/** A module tool's output JSON Schema, checked like its input schema; undefined: none. */
export function outputSchemaFor(
  tool: AnyTool,
  file: string,
): Readonly<Record<string, unknown>> | undefined {
  const converted = toolOutputSchema(tool);
  if (converted === undefined) return undefined;
  const at = `${tool.name} (${file})`;
  if (converted.error !== undefined) {
    throw new RegistryError(
      `Tool output schema cannot be converted to JSON Schema: ${at}: ${converted.error}`,
    );
  }
  const schema: Record<string, unknown> = { ...converted.schema };
  delete schema["$schema"];
  if (schema["type"] !== "object") {
    throw new RegistryError(`Tool output schema root must be "type":"object": ${at}`);
  }
  const bytes = utf8ByteLength(JSON.stringify(schema));
  if (bytes > CLIENT_TOOLS_LIMITS.schema_bytes) {
    throw new RegistryError(
      `Tool output schema is too large: ${at}: ${bytes} bytes exceeds the limit of ${CLIENT_TOOLS_LIMITS.schema_bytes}`,
    );
  }
  return Object.freeze(schema);
}
