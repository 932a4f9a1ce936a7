/**
 * Command-line parsing of the browsing commands: `sessions`, `history`, `models`, `select`.
 *
 * @module
 */

import { UsageError } from "../../errors/mod.ts";
import { optionalSession, optionalString, parseFlags, sessionId } from "./_flags.ts";
import { HELP_OPTION } from "./turn_flags.ts";

/** Options every browsing command takes. */
interface BrowseCommon {
  /** `--agent` command line. */
  agent: string | undefined;
  /** `--cwd`. */
  cwd: string | undefined;
}

/** Effort values `select --effort` accepts. */
export const EFFORT_VALUES = ["default", "low", "medium", "high", "xhigh", "max"] as const;

/** `sessions`, `history`, `models` and `select` options. */
export type BrowseArgs =
  | BrowseCommon & { command: "sessions"; table: boolean }
  | BrowseCommon & { command: "history"; sessionId: string }
  | BrowseCommon & { command: "models"; table: boolean; session: string | undefined }
  | BrowseCommon & {
    command: "select";
    provider: string;
    model: string;
    effort: typeof EFFORT_VALUES[number] | undefined;
    session: string;
  };

/** Parse the arguments after a browsing command. */
export function parseBrowseArgs(
  command: BrowseArgs["command"],
  argv: string[],
): BrowseArgs | { command: "help"; topic: string } {
  const { values, positionals } = parseFlags(argv, {
    agent: { type: "string" },
    cwd: { type: "string" },
    ...HELP_OPTION,
    ...(command === "sessions" || command === "models" ? { table: { type: "boolean" } } : {}),
    ...(command === "models" || command === "select" ? { session: { type: "string" } } : {}),
    ...(command === "select" ? { effort: { type: "string" } } : {}),
  });
  if (values.help) return { command: "help", topic: command };
  const common = {
    agent: optionalString(values.agent, "--agent"),
    cwd: optionalString(values.cwd, "--cwd"),
  };
  const wanted = command === "history" ? 1 : command === "select" ? 2 : 0;
  if (positionals.length > wanted) {
    throw new UsageError(`Unexpected argument: ${positionals[wanted]}`);
  }
  switch (command) {
    case "sessions":
      return { command, ...common, table: values.table === true };
    case "history": {
      const id = positionals[0];
      if (id === undefined || id === "") {
        throw new UsageError("Command history needs a SESSION ID");
      }
      return { command, ...common, sessionId: sessionId(id, "SESSION") };
    }
    case "models":
      return {
        command,
        ...common,
        table: values.table === true,
        session: optionalSession(values.session),
      };
    case "select": {
      const [provider, model] = positionals;
      if (provider === undefined || model === undefined || provider === "" || model === "") {
        throw new UsageError("Command select needs PROVIDER and MODEL");
      }
      const session = optionalSession(values.session);
      if (session === undefined) throw new UsageError("Command select needs --session ID");
      const effort = optionalString(values.effort, "--effort");
      if (effort !== undefined && !(EFFORT_VALUES as readonly string[]).includes(effort)) {
        throw new UsageError(
          `Option --effort must be one of ${EFFORT_VALUES.join(", ")}: ${effort}`,
        );
      }
      return {
        command,
        ...common,
        provider,
        model,
        effort: effort as typeof EFFORT_VALUES[number] | undefined,
        session,
      };
    }
  }
}
