/**
 * Command-line parsing of the tool author's loop: `call`, `init` and
 * `inspect` (strict `node:util` parseArgs, usage errors name the flag).
 *
 * @module
 */

import {
  optionalString as text,
  parseFlags as parse,
  type ToolDirArgs,
  toolDirArgs,
} from "./_flags.ts";
import { CLIENT_TOOL_MIN_TIMEOUT_MS, CLIENT_TOOLS_LIMITS } from "../../protocol/limits.ts";
import { UsageError } from "../../run/exit_codes.ts";

/** The config flags `call` and `inspect` share with `run` (the shape of args.ts's `ConfigArgs`). */
export interface LoopConfigArgs {
  /** `--config FILE`. */
  config: string | undefined;
  /** `--no-config`. */
  noConfig: boolean;
  /** `--mcp-config FILE`s. */
  mcpConfigs: string[];
}

/**
 * How the config flags are parsed: `run`'s own option table and parser,
 * handed in by `args.ts` (so this module does not import it back).
 */
export interface ConfigFlags {
  /** parseArgs options of the config flags. */
  readonly options: Readonly<Record<string, { type: "string" | "boolean"; multiple?: boolean }>>;
  /** The config args of parsed values. */
  readonly parse: (values: Values) => LoopConfigArgs;
}

const NO_CONFIG_FLAGS: ConfigFlags = {
  options: {},
  parse: () => ({ config: undefined, noConfig: false, mcpConfigs: [] }),
};

/** `call` options (with the config flags `--config`, `--no-config`, `--mcp-config`). */
export interface CallArgs extends LoopConfigArgs, ToolDirArgs {
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
}

/** `init` options. */
export interface InitArgs {
  /** Subcommand. */
  command: "init";
  /** Directory to write the project into (default `.`; created when missing). */
  dir: string;
}

/** `inspect` options (with the config flags `--config`, `--no-config`, `--mcp-config`). */
export interface InspectArgs extends LoopConfigArgs, ToolDirArgs {
  /** Subcommand. */
  command: "inspect";
  /** `--port` (0: a free port). */
  port: number;
  /** `--agent` command line (fixed for the inspector's lifetime). */
  agent: string | undefined;
  /** `--cwd`. */
  cwd: string | undefined;
}

/** What {@link parseLoopCommand} returns. */
export type LoopArgs = CallArgs | InitArgs | InspectArgs | { command: "help"; topic: string };

/** Parsed option values (`node:util` parseArgs). */
export type { Values } from "./_flags.ts";
import type { Values } from "./_flags.ts";

function integer(value: unknown, flag: string, min: number, max: number): number | undefined {
  const raw = text(value, flag);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    throw new UsageError(`Option ${flag} must be an integer from ${min} to ${max}: ${raw}`);
  }
  return n;
}

/**
 * Parse the arguments after `call`, `init` or `inspect`; `config` adds the
 * config flags (`args.ts` passes `run`'s). Throws {@link UsageError} naming
 * the flag or argument at fault.
 *
 * @example
 * ```ts
 * import { parseLoopCommand } from "./loop.ts";
 * const args = parseLoopCommand("call", ["text_stats", '{"text":"a"}', "--json"]);
 * console.assert(args.command === "call" && args.json && args.name === "text_stats");
 * ```
 */
export function parseLoopCommand(
  command: "call" | "init" | "inspect",
  argv: string[],
  config: ConfigFlags = NO_CONFIG_FLAGS,
): LoopArgs {
  switch (command) {
    case "call": {
      const { values, positionals } = parse(argv, {
        tools: { type: "string", multiple: true },
        "timeout-ms": { type: "string" },
        json: { type: "boolean" },
        cwd: { type: "string" },
        help: { type: "boolean", short: "h" },
        ...config.options,
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
        ...config.parse(values),
      };
    }
    case "init": {
      const { values, positionals } = parse(argv, { help: { type: "boolean", short: "h" } });
      if (values.help) return { command: "help", topic: "init" };
      if (positionals.length > 1) throw new UsageError(`Unexpected argument: ${positionals[1]}`);
      const dir = positionals[0] ?? ".";
      if (dir === "") throw new UsageError("Command init needs a non-empty DIR");
      return { command, dir };
    }
    case "inspect": {
      const { values, positionals } = parse(argv, {
        tools: { type: "string", multiple: true },
        port: { type: "string" },
        agent: { type: "string" },
        cwd: { type: "string" },
        help: { type: "boolean", short: "h" },
        ...config.options,
      });
      if (values.help) return { command: "help", topic: "inspect" };
      if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
      return {
        command,
        ...toolDirArgs(values.tools),
        port: integer(values.port, "--port", 0, 65_535) ?? 0,
        agent: text(values.agent, "--agent"),
        cwd: text(values.cwd, "--cwd"),
        ...config.parse(values),
      };
    }
  }
}
