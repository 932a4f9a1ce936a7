/**
 * The flag-parsing building blocks every command's argument parser shares: `node:util`
 * `parseArgs` with usage errors instead of Node's messages, a non-empty option value, and
 * the repeatable `--tools DIR` list.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { UsageError } from "./exit_codes.ts";

/** `parseArgs` options. */
export type OptionSpec = Record<
  string,
  { type: "string" | "boolean"; multiple?: boolean; short?: string }
>;

/** Parsed `parseArgs` values. */
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** Strict `parseArgs` of `argv`; an unknown flag or a missing value is a {@link UsageError}. */
export function parseFlags(
  argv: string[],
  options: OptionSpec,
): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options,
      strict: true,
      allowPositionals: true,
    });
    return { values: values as Values, positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, ""));
  }
}

/** A string option's value, or undefined when absent; an empty value is a usage error. */
export function optionalString(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new UsageError(`Option ${flag} needs a value`);
  }
  return value;
}

/** The `--tools DIR` list (repeatable); default `./tools`. */
export function toolDirs(value: unknown): string[] {
  const dirs = Array.isArray(value) ? value.map(String) : [];
  for (const dir of dirs) if (dir === "") throw new UsageError("Option --tools needs a directory");
  return dirs.length > 0 ? dirs : ["./tools"];
}
