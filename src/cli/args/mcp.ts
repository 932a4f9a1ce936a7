/**
 * `magi-tools mcp`'s command line: the tool and config flags every loading command takes, the
 * transport (`--http PORT`), the HTTP credential (`--token`) and the write-tool policy
 * (`--approve`, `--approve-timeout`).
 *
 * @module
 */

import { optionalString, parseFlags, type ToolDirArgs, toolDirArgs } from "./_flags.ts";
import { UsageError } from "../../run/exit_codes.ts";
import { CONFIG_OPTIONS, type ConfigArgs, configArgs } from "./host.ts";

/** The environment variable `mcp --http` takes its token from when `--token` is not given. */
export const MCP_TOKEN_ENV = "MAGI_TOOLS_MCP_TOKEN";

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
  /** `--approve`: what write tools do (default `ask`). */
  approve: "deny" | "allow" | "ask";
  /** `--approve-timeout` in milliseconds (default 120,000). */
  approveTimeoutMs: number;
}

/**
 * A usable bearer token: 16 to 512 characters of the RFC 6750 `b64token` alphabet
 * (`A-Z a-z 0-9 - . _ ~ + /`, then `=` padding); `what` names where it came from.
 */
export function checkToken(token: string, what: string): string {
  if (!/^[A-Za-z0-9._~+/-]+=*$/.test(token) || token.length < 16 || token.length > 512) {
    throw new UsageError(
      `${what} must be 16 to 512 characters of A-Z a-z 0-9 - . _ ~ + / (then = padding)`,
    );
  }
  return token;
}

/** Parse `mcp`'s arguments (after the subcommand). */
export function parseMcpArgs(argv: string[]): McpArgs | { command: "help"; topic: "mcp" } {
  const { values, positionals } = parseFlags(argv, {
    tools: { type: "string", multiple: true },
    http: { type: "string" },
    token: { type: "string" },
    approve: { type: "string" },
    "approve-timeout": { type: "string" },
    help: { type: "boolean", short: "h" },
    ...CONFIG_OPTIONS,
  });
  if (values.help) return { command: "help", topic: "mcp" };
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
  const http = optionalString(values.http, "--http");
  if (http !== undefined && (!/^\d{1,5}$/.test(http) || Number(http) > 65_535)) {
    throw new UsageError(`Option --http must be a port number from 0 to 65535: ${http}`);
  }
  const token = optionalString(values.token, "--token");
  if (token !== undefined) {
    if (http === undefined) {
      throw new UsageError("Option --token needs --http (stdio has no token)");
    }
    checkToken(token, "Option --token");
  }
  const approve = optionalString(values.approve, "--approve") ?? "ask";
  if (approve !== "deny" && approve !== "allow" && approve !== "ask") {
    throw new UsageError(`Option --approve must be deny, allow or ask: ${approve}`);
  }
  const timeout = optionalString(values["approve-timeout"], "--approve-timeout");
  let approveTimeoutMs = DEFAULT_APPROVE_TIMEOUT_SECONDS * 1000;
  if (timeout !== undefined) {
    const seconds = Number(timeout);
    if (!/^\d+(\.\d+)?$/.test(timeout) || !(seconds > 0) || seconds > 86_400) {
      throw new UsageError(
        `Option --approve-timeout must be a number of seconds in (0, 86400]: ${timeout}`,
      );
    }
    approveTimeoutMs = Math.max(1, Math.round(seconds * 1000));
  }
  return {
    command: "mcp",
    ...toolDirArgs(values.tools),
    http: http === undefined ? undefined : Number(http),
    token,
    approve,
    approveTimeoutMs,
    ...configArgs(values),
  };
}
