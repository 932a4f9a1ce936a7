/**
 * The JSONC step of reading a config: text → value, with the first syntax
 * error as a {@link ConfigError} naming `file:line:column`. No key is looked
 * at and no environment variable is read, so the approval check of a project
 * config (`trust.ts`) can run on its result before anything is expanded.
 *
 * @module
 */

import { parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import { ConfigError } from "./errors.ts";

/**
 * Parse JSONC `text` (comments and trailing commas allowed).
 *
 * @throws {ConfigError} `file:line:column: invalid JSONC: <code>` on the first syntax error.
 */
export function parseJsonc(text: string, file: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const { line, column } = positionOf(text, first.offset);
    throw new ConfigError(
      `${file}:${line}:${column}: invalid JSONC: ${printParseErrorCode(first.error)}`,
    );
  }
  return value;
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
