/**
 * Command-line parsing of the tool author's loop: `call`, `init` and
 * `inspect` (strict `node:util` parseArgs, usage errors name the flag).
 *
 * @module
 */

import type { InspectOptions } from "../../inspect/mod.ts";
import { CLIENT_TOOL_MIN_TIMEOUT_MS, CLIENT_TOOLS_LIMITS } from "../../protocol/limits.ts";
import { UsageError } from "../../errors/mod.ts";
import type { ConfigArgs, ToolDirArgs } from "../../run/command_options.ts";
import { integer, optionalString as text, parseFlags as parse } from "./_flags.ts";
import {
  approvePolicy,
  CONFIG_OPTIONS,
  configArgs,
  HELP_OPTION,
  START_TIMEOUT_OPTION,
  startTimeout,
  toolDirArgs,
  TOOLS_OPTION,
} from "./turn_flags.ts";

/** `call` options (with the config flags `--config`, `--no-config`, `--mcp-config`). */
export interface CallArgs extends ConfigArgs, ToolDirArgs {
  /** Subcommand. */
  command: "call";
  /** Tool name. */
  name: string;
  /** Arguments as JSON text; undefined → stdin when it is not a terminal, else `{}`. */
  argsJson: string | undefined;
  /** `--timeout-ms`: the call's deadline instead of the tool's `timeout_ms`. */
  timeoutMs: number | undefined;
  /** `--json`: one JSON record instead of the result text. */
  json: boolean;
  /** `--cwd`: the tools' working directory (`ctx.cwd`). */
  cwd: string | undefined;
  /** `--start-timeout` in milliseconds: each tool source's start deadline (default 60,000). */
  startTimeoutMs: number;
}

/** `init` options. */
export interface InitArgs {
  /** Subcommand. */
  command: "init";
  /** Directory to write the project into (default `.`; created when missing). */
  dir: string;
  /** `--from PATH`: import this magi-tools checkout (written relative) instead of the registry. */
  from: string | undefined;
}

/** `inspect` options. */
export type InspectArgs = InspectOptions & { command: "inspect" };

/** What {@link parseAuthorArgs} returns. */
export type AuthorArgs = CallArgs | InitArgs | InspectArgs | { command: "help"; topic: string };

/**
 * Parse the arguments after `call`, `init` or `inspect`. Throws {@link UsageError} naming
 * the flag or argument at fault.
 *
 * @example
 * ```ts
 * import { parseAuthorArgs } from "./author_commands.ts";
 * const args = parseAuthorArgs("call", ["text_stats", '{"text":"a"}', "--json"]);
 * console.assert(args.command === "call" && args.json && args.name === "text_stats");
 * ```
 */
export function parseAuthorArgs(
  command: "call" | "init" | "inspect",
  argv: string[],
): AuthorArgs {
  switch (command) {
    case "call": {
      const { values, positionals } = parse(argv, {
        ...TOOLS_OPTION,
        "timeout-ms": { type: "string" },
        json: { type: "boolean" },
        cwd: { type: "string" },
        ...START_TIMEOUT_OPTION,
        ...HELP_OPTION,
        ...CONFIG_OPTIONS,
      });
      if (values.help) return { command: "help", topic: "call" };
      const [name, argsJson, extra] = positionals;
      if (name === undefined || name === "") throw new UsageError("Command call needs a tool NAME");
      if (extra !== undefined) {
        throw new UsageError(`Unexpected argument: ${extra} (quote the JSON arguments)`);
      }
      return {
        command,
        name,
        argsJson,
        ...toolDirArgs(values.tools),
        timeoutMs: integer(
          values["timeout-ms"],
          "--timeout-ms",
          CLIENT_TOOL_MIN_TIMEOUT_MS,
          CLIENT_TOOLS_LIMITS.max_timeout_ms,
        ),
        json: values.json === true,
        cwd: text(values.cwd, "--cwd"),
        startTimeoutMs: startTimeout(values),
        ...configArgs(values),
      };
    }
    case "init": {
      const { values, positionals } = parse(argv, { from: { type: "string" }, ...HELP_OPTION });
      if (values.help) return { command: "help", topic: "init" };
      if (positionals.length > 1) throw new UsageError(`Unexpected argument: ${positionals[1]}`);
      const dir = positionals[0] ?? ".";
      if (dir === "") throw new UsageError("Command init needs a non-empty DIR");
      return { command, dir, from: text(values.from, "--from") };
    }
    case "inspect": {
      const { values, positionals } = parse(argv, {
        ...TOOLS_OPTION,
        port: { type: "string" },
        agent: { type: "string" },
        cwd: { type: "string" },
        approve: { type: "string", multiple: true },
        ...START_TIMEOUT_OPTION,
        ...HELP_OPTION,
        ...CONFIG_OPTIONS,
      });
      if (values.help) return { command: "help", topic: "inspect" };
      // Approval rules; the default is ask: the page decides what no rule does.
      const approvals = approvePolicy(values, "ask");
      if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
      return {
        command,
        ...toolDirArgs(values.tools),
        port: integer(values.port, "--port", 0, 65_535) ?? 0,
        agent: text(values.agent, "--agent"),
        cwd: text(values.cwd, "--cwd"),
        startTimeoutMs: startTimeout(values),
        ...(approvals.rules.length === 0 && approvals.fallbackOrigin === "command"
          ? {}
          : { approvals }),
        ...configArgs(values),
      };
    }
  }
}
