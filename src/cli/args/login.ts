/**
 * Command-line parsing of `login NAME` and `logout NAME` (strict `node:util`
 * parseArgs, usage errors name the flag). The commands are `commands/login.ts`.
 *
 * @module
 */

import type { ConfigArgs } from "../../run/command_options.ts";
import { parseFlags } from "./_flags.ts";
import { CONFIG_OPTIONS, configArgs, HELP_OPTION } from "./turn_flags.ts";
import { UsageError } from "../../errors/mod.ts";

/** `login` / `logout` options. */
export interface LoginArgs extends ConfigArgs {
  /** Subcommand. */
  command: "login" | "logout";
  /** The `mcpServers` key of an HTTP server with `oauth`. */
  server: string;
  /** `login --no-browser`: print the URL only. */
  noBrowser: boolean;
}

/**
 * Parse the arguments after `login` or `logout`; `--help` gives the help topic.
 *
 * @example
 * ```ts
 * import { parseLoginArgs } from "./login.ts";
 * const args = parseLoginArgs("login", ["github", "--no-browser"]);
 * console.assert(args.command === "login" && args.server === "github" && args.noBrowser);
 * ```
 */
export function parseLoginArgs(
  command: "login" | "logout",
  argv: string[],
): LoginArgs | { command: "help"; topic: string } {
  const { values, positionals } = parseFlags(
    argv,
    {
      ...CONFIG_OPTIONS,
      ...(command === "login" ? { "no-browser": { type: "boolean" } } : {}),
      ...HELP_OPTION,
    } as Parameters<typeof parseFlags>[1],
  );
  if (values.help === true) return { command: "help", topic: command };
  if (positionals.length === 0 || positionals[0] === "") {
    throw new UsageError(`Command ${command} needs NAME, an mcpServers entry with oauth`);
  }
  if (positionals.length > 1) throw new UsageError(`Unexpected argument: ${positionals[1]}`);
  return {
    command,
    server: positionals[0]!,
    noBrowser: values["no-browser"] === true,
    ...configArgs(values),
  };
}
