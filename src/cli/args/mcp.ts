/**
 * `magi-tools mcp`'s command line: the tool and config flags every loading command takes, the
 * transport (`--http PORT`), the HTTP credential (`--token`), the HTTP session table
 * (`--max-sessions`, `--session-idle-timeout`), the write-tool policy (`--approve`,
 * `--approve-timeout`) and live reload (`--watch`).
 *
 * @module
 */

import { checkToken } from "../../mcp/http_token.ts";
import { CLIENT_TOOLS_LIMITS, MIN_RESULT_BYTES } from "../../protocol/limits.ts";
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_SECONDS } from "../../mcp/serve_api.ts";
import { UsageError } from "../../errors/mod.ts";
import type { ConfigArgs, ToolDirArgs } from "../../run/command_options.ts";
import { integer, oneOf, optionalString, parseFlags, seconds } from "./_flags.ts";
import type { ApprovalPolicy } from "../../call/approval_rules.ts";
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

/** The largest `--max-sessions`. */
export const MAX_SESSIONS_LIMIT = 4_096;

/** The default `--approve-timeout`, seconds. */
export const DEFAULT_APPROVE_TIMEOUT_SECONDS = 120;

/** `mcp` options. */
export interface McpArgs extends ConfigArgs, ToolDirArgs {
  /** Subcommand. */
  command: "mcp";
  /** `--http PORT`: Streamable HTTP instead of stdio. */
  http: number | undefined;
  /** `--token TOKEN` (HTTP only): the bearer token instead of a generated one. */
  token: string | undefined;
  /** `--max-sessions N` (HTTP only): at most this many MCP sessions (default 64). */
  maxSessions: number;
  /** `--session-idle-timeout` in ms (HTTP only): close a session idle this long; 0: never. */
  sessionIdleMs: number;
  /** `--approve`: what write tools do (default `ask`); with rules, what no rule decides. */
  approve: "deny" | "allow" | "ask";
  /** Every `--approve` value: the approval rules in order and the default. */
  approvals: ApprovalPolicy;
  /** `--approve-timeout` in milliseconds (default 120,000). */
  approveTimeoutMs: number;
  /** `--start-timeout` in milliseconds: each tool source's start deadline (default 60,000). */
  startTimeoutMs: number;
  /** `--watch`: reload the tools and config on change, with `tools/list_changed` (default off). */
  watch: boolean;
  /** `--max-result-bytes N`: the result bound of tools that declare none (default: 1 MiB). */
  maxResultBytes: number | undefined;
  /** `--overflow POLICY`: what a result over the bound becomes for tools that declare none. */
  overflow: "error" | "truncate" | "spill" | undefined;
}

/** Parse `mcp`'s arguments (after the subcommand). */
export function parseMcpArgs(argv: string[]): McpArgs | { command: "help"; topic: "mcp" } {
  const { values, positionals } = parseFlags(argv, {
    ...TOOLS_OPTION,
    http: { type: "string" },
    token: { type: "string" },
    "max-sessions": { type: "string" },
    "session-idle-timeout": { type: "string" },
    approve: { type: "string", multiple: true },
    "approve-timeout": { type: "string" },
    watch: { type: "boolean" },
    "max-result-bytes": { type: "string" },
    overflow: { type: "string" },
    ...START_TIMEOUT_OPTION,
    ...HELP_OPTION,
    ...CONFIG_OPTIONS,
  });
  if (values.help) return { command: "help", topic: "mcp" };
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
  const http = integer(values.http, "--http", 0, 65_535, "a port number");
  const token = optionalString(values.token, "--token");
  if (token !== undefined) {
    if (http === undefined) {
      throw new UsageError("Option --token needs --http (stdio has no token)");
    }
    checkToken(token, "Option --token");
  }
  const maxSessions = integer(values["max-sessions"], "--max-sessions", 1, MAX_SESSIONS_LIMIT);
  const idle = seconds(values["session-idle-timeout"], "--session-idle-timeout", { zero: true });
  for (const [flag, value] of [["--max-sessions", maxSessions], ["--session-idle-timeout", idle]]) {
    if (value !== undefined && http === undefined) {
      throw new UsageError(`Option ${flag} needs --http (stdio has one session)`);
    }
  }
  const approvals = approvePolicy(values, "ask");
  const timeout = optionalString(values["approve-timeout"], "--approve-timeout");
  return {
    command: "mcp",
    ...toolDirArgs(values.tools),
    http,
    token,
    maxSessions: maxSessions ?? DEFAULT_MAX_SESSIONS,
    sessionIdleMs: idle ?? DEFAULT_SESSION_IDLE_SECONDS * 1000,
    approve: approvals.fallback,
    approvals,
    approveTimeoutMs: Math.max(
      1,
      seconds(timeout, "--approve-timeout") ?? DEFAULT_APPROVE_TIMEOUT_SECONDS * 1000,
    ),
    startTimeoutMs: startTimeout(values),
    watch: values.watch === true,
    ...resultFlags(values),
    ...configArgs(values),
  };
}

/** `--max-result-bytes` and `--overflow`. */
function resultFlags(
  values: { "max-result-bytes"?: string | undefined; overflow?: string | undefined },
): Pick<McpArgs, "maxResultBytes" | "overflow"> {
  const maxResultBytes = integer(
    values["max-result-bytes"],
    "--max-result-bytes",
    MIN_RESULT_BYTES,
    CLIENT_TOOLS_LIMITS.result_bytes,
  );
  const overflow = values.overflow === undefined
    ? undefined
    : oneOf(values.overflow, "--overflow", ["error", "truncate", "spill"], "error");
  return { maxResultBytes, overflow };
}
