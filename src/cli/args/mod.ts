/**
 * Command-line parsing (`node:util` parseArgs, strict): subcommands `run`,
 * `tools`, `demo`, plus `--help` and `--version`.
 *
 * @module
 */

import { optionalString, parseFlags as parse, type ToolDirArgs, toolDirArgs } from "./_flags.ts";
import { UsageError } from "../../run/exit_codes.ts";
import { didYouMean } from "./suggest.ts";
import type { ApproveMode } from "../../run/approvals.ts";
export type { ApproveMode };
import type { KernelSandboxMode } from "../../run/kernel_sandbox.ts";
import {
  CONFIG_OPTIONS,
  type ConfigArgs,
  configArgs,
  KERNEL_OPTIONS,
  kernelSandboxMode,
} from "./host.ts";
import { DEFAULT_STALL_TIMEOUT_MS } from "../../run/liveness.ts";
import { type BatchArgs, parseBatchArgs, parseReportArgs, type ReportArgs } from "./batch.ts";
import { type LoopArgs, parseLoopCommand } from "./loop.ts";
import { type McpArgs, parseMcpArgs } from "./mcp.ts";
import { parseTrustArgs, type TrustArgs } from "./trust.ts";

export type { ConfigArgs, McpArgs, ToolDirArgs };

/** `run` options. */
export interface RunArgs extends ConfigArgs, ToolDirArgs {
  /** Subcommand. */
  command: "run";
  /** Prompt argument; undefined → read stdin. */
  prompt: string | undefined;
  /** `--agent` command line. */
  agent: string | undefined;
  /** `--cwd`. */
  cwd: string | undefined;
  /** `--session`. */
  session: string | undefined;
  /** `--approve`. */
  approve: ApproveMode;
  /** `--deltas`. */
  deltas: boolean;
  /** `--last-message`. */
  lastMessage: string | undefined;
  /** `--timeout` in milliseconds. */
  timeoutMs: number | undefined;
  /** `--stall-timeout` in milliseconds (default 60,000; 0 disables the liveness probe). */
  stallTimeoutMs: number;
  /** `--fail-on-tool-error`: exit 1 when a tool call ended in error or was denied. */
  failOnToolError: boolean;
  /** `--require-kernel-sandbox` (`require`), `--no-kernel-sandbox` (`off`), else `auto`. */
  kernelSandbox: KernelSandboxMode;
  /** `--format`: `text` (a transcript) or `ndjson`; undefined → text only when stdout is a terminal. */
  format?: "text" | "ndjson" | undefined;
}

/** `tools` options. */
export interface ToolsArgs extends ConfigArgs, ToolDirArgs {
  /** Subcommand. */
  command: "tools";
  /** Print the exact definitions as JSON. */
  json: boolean;
  /** Print each tool's isolation, memory cap and permissions as JSON. */
  permissionsJson: boolean;
  /** Print the least `deno run` permission flags `run` needs. */
  denoFlags: boolean;
  /** Print the `deno run` flags of an `init` project's tasks, from the config (no tools load). */
  taskFlags: boolean;
  /** `--agent` command line (for `--deno-flags`). */
  agent: string | undefined;
}

/** `demo` options. */
export interface DemoArgs {
  /** Subcommand. */
  command: "demo";
  /** `--deltas`. */
  deltas: boolean;
  /** `--format`, as for `run`: undefined → a transcript only when stdout is a terminal. */
  format?: "text" | "ndjson" | undefined;
}

/** `--format text|ndjson` (run, demo), or undefined when not given. */
function formatOf(value: unknown): "text" | "ndjson" | undefined {
  const format = optionalString(value, "--format");
  if (format !== undefined && format !== "text" && format !== "ndjson") {
    throw new UsageError(`Option --format must be text or ndjson: ${format}`);
  }
  return format;
}

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

/** Parsed command line. */
export type CliArgs =
  | RunArgs
  | ToolsArgs
  | DemoArgs
  | McpArgs
  | BrowseArgs
  | BatchArgs
  | ReportArgs
  | LoopArgs
  | TrustArgs
  | { command: "help"; topic: string | undefined }
  | { command: "version" };

/** The session ID grammar of the protocol: `[A-Za-z0-9_-]`, 1 to 64 characters. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `value` when it is a well-formed session ID; else a usage error naming `what`. */
function sessionId(value: string, what: string): string {
  if (!SESSION_ID.test(value)) {
    throw new UsageError(
      `${what} is not a session ID (1 to 64 of A-Z a-z 0-9 _ -): ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function optionalSession(value: unknown): string | undefined {
  const given = optionalString(value, "--session");
  return given === undefined ? undefined : sessionId(given, "Option --session");
}

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
      return parseRun(rest);
    case "tools": {
      const { values, positionals } = parse(rest, {
        tools: { type: "string", multiple: true },
        json: { type: "boolean" },
        "permissions-json": { type: "boolean" },
        "deno-flags": { type: "boolean" },
        "task-flags": { type: "boolean" },
        agent: { type: "string" },
        help: { type: "boolean", short: "h" },
        ...CONFIG_OPTIONS,
      });
      if (values.help) return { command: "help", topic: "tools" };
      if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
      const modes = ["json", "permissions-json", "deno-flags", "task-flags"].filter((m) =>
        values[m] === true
      );
      if (modes.length > 1) {
        throw new UsageError(`Options --${modes[0]} and --${modes[1]} cannot be combined`);
      }
      const agent = optionalString(values.agent, "--agent");
      if (agent !== undefined && values["deno-flags"] !== true) {
        throw new UsageError("Option --agent of tools needs --deno-flags");
      }
      return {
        command: "tools",
        ...toolDirArgs(values.tools),
        json: values.json === true,
        permissionsJson: values["permissions-json"] === true,
        denoFlags: values["deno-flags"] === true,
        taskFlags: values["task-flags"] === true,
        agent,
        ...configArgs(values),
      };
    }
    case "demo": {
      const { values, positionals } = parse(rest, {
        deltas: { type: "boolean" },
        format: { type: "string" },
        help: { type: "boolean", short: "h" },
      });
      if (values.help) return { command: "help", topic: "demo" };
      if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
      const format = formatOf(values.format);
      return {
        command: "demo",
        deltas: values.deltas === true,
        ...(format === undefined ? {} : { format }),
      };
    }
    case "mcp":
      return parseMcpArgs(rest);
    case "sessions":
    case "history":
    case "models":
    case "select":
      return parseBrowse(first, rest);
    case "batch":
      return parseBatchArgs(rest);
    case "report":
      return parseReportArgs(rest);
    case "call":
    case "init":
    case "inspect":
      return parseLoopCommand(first, rest, { options: CONFIG_OPTIONS, parse: configArgs });
    case "trust":
      return parseTrustArgs(rest);
    default:
      if (first.startsWith("-")) {
        throw new UsageError(`Unknown option '${first}'${didYouMean(first, TOP_OPTIONS)}`);
      }
      throw new UsageError(`Unknown command: ${first}${didYouMean(first, COMMANDS)}`);
  }
}

function parseRun(argv: string[]): CliArgs {
  const { values, positionals } = parse(argv, {
    tools: { type: "string", multiple: true },
    agent: { type: "string" },
    cwd: { type: "string" },
    session: { type: "string" },
    approve: { type: "string" },
    deltas: { type: "boolean" },
    "last-message": { type: "string" },
    timeout: { type: "string" },
    "stall-timeout": { type: "string" },
    "fail-on-tool-error": { type: "boolean" },
    ...KERNEL_OPTIONS,
    format: { type: "string" },
    help: { type: "boolean", short: "h" },
    ...CONFIG_OPTIONS,
  });
  if (values.help) return { command: "help", topic: "run" };
  const kernelSandbox = kernelSandboxMode(values);
  const format = formatOf(values.format);
  if (positionals.length > 1) {
    throw new UsageError(`Unexpected argument: ${positionals[1]} (quote the prompt)`);
  }
  const approve = optionalString(values.approve, "--approve") ?? "deny";
  if (approve !== "deny" && approve !== "allow" && approve !== "ask") {
    throw new UsageError(`Option --approve must be deny, allow or ask: ${approve}`);
  }
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    const seconds = Number(values.timeout);
    if (!/^\d+(\.\d+)?$/.test(String(values.timeout)) || !(seconds > 0) || seconds > 86_400) {
      throw new UsageError(
        `Option --timeout must be a number of seconds in (0, 86400]: ${values.timeout}`,
      );
    }
    timeoutMs = Math.round(seconds * 1000);
  }
  let stallTimeoutMs = DEFAULT_STALL_TIMEOUT_MS;
  const stall = values["stall-timeout"];
  if (stall !== undefined) {
    const seconds = Number(stall);
    if (!/^\d+(\.\d+)?$/.test(String(stall)) || seconds > 86_400) {
      throw new UsageError(
        `Option --stall-timeout must be a number of seconds in [0, 86400]: ${stall}`,
      );
    }
    stallTimeoutMs = Math.round(seconds * 1000);
  }
  return {
    command: "run",
    prompt: positionals[0],
    ...toolDirArgs(values.tools),
    agent: optionalString(values.agent, "--agent"),
    cwd: optionalString(values.cwd, "--cwd"),
    session: optionalSession(values.session),
    approve,
    deltas: values.deltas === true,
    lastMessage: optionalString(values["last-message"], "--last-message"),
    timeoutMs,
    stallTimeoutMs,
    failOnToolError: values["fail-on-tool-error"] === true,
    kernelSandbox,
    ...(format === undefined ? {} : { format }),
    ...configArgs(values),
  };
}

function parseBrowse(command: BrowseArgs["command"], argv: string[]): CliArgs {
  const { values, positionals } = parse(argv, {
    agent: { type: "string" },
    cwd: { type: "string" },
    help: { type: "boolean", short: "h" },
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
