/**
 * Command-line parsing (`node:util` parseArgs, strict): the command, then its flags, parsed by
 * the command's file here (`run.ts`, `batch.ts`, `tools.ts`, `mcp.ts`, `author_commands.ts`, `browse.ts`,
 * `trust.ts`) from one option table (`turn_flags.ts`) and one parser per kind of value (`_flags.ts`).
 *
 * @module
 */

import { UsageError } from "../../errors/mod.ts";
import { type BatchArgs, parseBatchArgs, parseReportArgs, type ReportArgs } from "./batch.ts";
import { type BrowseArgs, parseBrowseArgs } from "./browse.ts";
import { type AuthorArgs, parseAuthorArgs } from "./author_commands.ts";
import { type McpArgs, parseMcpArgs } from "./mcp.ts";
import { type DemoArgs, parseDemoArgs, parseRunArgs, type RunArgs } from "./run.ts";
import { didYouMean } from "./suggest.ts";
import { parseToolsArgs, type ToolsArgs } from "./tools.ts";
import { parseTrustArgs, type TrustArgs } from "./trust.ts";
import { type LoginArgs, parseLoginArgs } from "./login.ts";

export type { ConfigArgs, ToolDirArgs } from "../../run/command_options.ts";
export type { BatchArgs, ReportArgs };
export type { CallArgs, InitArgs, InspectArgs } from "./author_commands.ts";
export type { BrowseArgs, DemoArgs, LoginArgs, McpArgs, RunArgs, ToolsArgs, TrustArgs };
export { EFFORT_VALUES } from "./browse.ts";

/** Parsed command line. */
export type CliArgs =
  | RunArgs
  | ToolsArgs
  | DemoArgs
  | McpArgs
  | BrowseArgs
  | BatchArgs
  | ReportArgs
  | AuthorArgs
  | TrustArgs
  | LoginArgs
  | { command: "help"; topic: string | undefined }
  | { command: "version" };

/** Every command {@link parseCli} knows (for "did you mean" and the help hint). */
export const COMMANDS: readonly string[] = [
  "run",
  "tools",
  "demo",
  "mcp",
  "sessions",
  "history",
  "models",
  "select",
  "batch",
  "report",
  "call",
  "init",
  "inspect",
  "help",
  "trust",
  "login",
  "logout",
];
/** The options valid before a command. */
const TOP_OPTIONS = ["--help", "--version", "-h", "-V"];

/**
 * Parse `argv` (without the program). Throws {@link UsageError} naming the
 * flag on an unknown option or a bad value.
 *
 * @example
 * ```ts
 * import { parseCli } from "./mod.ts";
 * const args = parseCli(["run", "--approve", "allow", "hello"]);
 * console.assert(args.command === "run" && args.approve === "allow");
 * ```
 */
export function parseCli(argv: string[]): CliArgs {
  const first = argv[0];
  if (first === undefined) return { command: "help", topic: undefined };
  if (first === "--help" || first === "-h" || first === "help") {
    return { command: "help", topic: first === "help" ? argv[1] : undefined };
  }
  if (first === "--version" || first === "-V") {
    if (argv.length > 1) throw new UsageError(`Unexpected argument after ${first}: ${argv[1]}`);
    return { command: "version" };
  }
  const rest = argv.slice(1);
  switch (first) {
    case "run":
      return parseRunArgs(rest);
    case "tools":
      return parseToolsArgs(rest);
    case "demo":
      return parseDemoArgs(rest);
    case "mcp":
      return parseMcpArgs(rest);
    case "sessions":
    case "history":
    case "models":
    case "select":
      return parseBrowseArgs(first, rest);
    case "batch":
      return parseBatchArgs(rest);
    case "report":
      return parseReportArgs(rest);
    case "call":
    case "init":
    case "inspect":
      return parseAuthorArgs(first, rest);
    case "trust":
      return parseTrustArgs(rest);
    case "login":
    case "logout":
      return parseLoginArgs(first, rest);
    default:
      if (first.startsWith("-")) {
        throw new UsageError(`Unknown option '${first}'${didYouMean(first, TOP_OPTIONS)}`);
      }
      throw new UsageError(`Unknown command: ${first}${didYouMean(first, COMMANDS)}`);
  }
}
