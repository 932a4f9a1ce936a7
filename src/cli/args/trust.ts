/**
 * Command-line parsing of `trust [FILE]`, `trust --list` and
 * `trust --revoke [FILE]` (strict `node:util` parseArgs, usage errors name
 * the flag). The command itself is `commands/trust.ts`.
 *
 * @module
 */

import { parseFlags } from "./_flags.ts";
import { HELP_OPTION } from "./turn_flags.ts";
import { UsageError } from "../../errors/mod.ts";

/** `trust` options. */
export interface TrustArgs {
  /** Subcommand. */
  command: "trust";
  /** What to do: record `file`, list the store, or remove `file`. */
  action: "trust" | "list" | "revoke";
  /** The config file (default `magi-tools.jsonc`; unused by `list`). */
  file: string;
}

/**
 * Parse the arguments after `trust`; `--help` gives the help topic.
 *
 * @example
 * ```ts
 * import { parseTrustArgs } from "./trust.ts";
 * const args = parseTrustArgs(["--revoke", "app/magi-tools.jsonc"]);
 * console.assert(args.command === "trust" && args.action === "revoke");
 * ```
 */
export function parseTrustArgs(argv: string[]): TrustArgs | { command: "help"; topic: string } {
  const { values, positionals } = parseFlags(argv, {
    list: { type: "boolean" },
    revoke: { type: "boolean" },
    ...HELP_OPTION,
  });
  if (values.help === true) return { command: "help", topic: "trust" };
  if (values.list === true && values.revoke === true) {
    throw new UsageError("Options --list and --revoke cannot be combined");
  }
  if (positionals.length > 1) throw new UsageError(`Unexpected argument: ${positionals[1]}`);
  if (values.list === true && positionals.length > 0) {
    throw new UsageError(`Unexpected argument: ${positionals[0]} (--list takes no FILE)`);
  }
  const file = positionals[0] ?? "magi-tools.jsonc";
  if (file === "") throw new UsageError("Command trust needs a non-empty FILE");
  const action = values.list === true ? "list" : values.revoke === true ? "revoke" : "trust";
  return { command: "trust", action, file };
}
