/**
 * The flag-parsing building blocks every command's argument parser shares: `node:util`
 * `parseArgs` with usage errors instead of Node's messages, a non-empty option value, and
 * the repeatable `--tools DIR` list.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { UsageError } from "../../run/exit_codes.ts";
import { didYouMean } from "./suggest.ts";

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
    const message = (error instanceof Error ? error.message : String(error))
      .replace(/\. To specify a positional argument.*$/s, "");
    const unknown = /^Unknown option '([^']+)'$/.exec(message)?.[1];
    if (unknown === undefined) throw new UsageError(message);
    const known = Object.entries(options).flatMap(([name, spec]) =>
      spec.short === undefined ? [`--${name}`] : [`--${name}`, `-${spec.short}`]
    );
    throw new UsageError(`${message}${didYouMean(unknown.replace(/=.*$/s, ""), known)}`);
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

/** The tool directory loaded when `--tools` is not given. */
export const DEFAULT_TOOL_DIR = "./tools";

/** The `--tools DIR` list of a command that loads tools, and whether it was given. */
export interface ToolDirArgs {
  /** Tool directories (default `["./tools"]`, {@link DEFAULT_TOOL_DIR}). */
  toolDirs: string[];
  /**
   * Whether `--tools` was given. When it was not, a missing `./tools` is no error if the
   * config declares a tool source (`planTools` in `sources.ts`).
   */
  toolDirsExplicit: boolean;
}

/** The `--tools DIR` list (repeatable); default `./tools`, not explicit. */
export function toolDirArgs(value: unknown): ToolDirArgs {
  const dirs = Array.isArray(value) ? value.map(String) : [];
  for (const dir of dirs) if (dir === "") throw new UsageError("Option --tools needs a directory");
  return dirs.length > 0
    ? { toolDirs: dirs, toolDirsExplicit: true }
    : { toolDirs: [DEFAULT_TOOL_DIR], toolDirsExplicit: false };
}
