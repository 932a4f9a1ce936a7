/**
 * Command-line parsing of `run` (the flags of a turn it shares with `batch`, `args/turn_flags.ts`)
 * and `demo`.
 *
 * @module
 */

import type { ApproveMode } from "../../run/approvals.ts";
import { UsageError } from "../../errors/mod.ts";
import type { TurnFlags } from "../../run/command_options.ts";
import { oneOf, optionalSession, optionalString, parseFlags } from "./_flags.ts";
import { approvePolicy, HELP_OPTION, TURN_OPTIONS, turnFlags } from "./turn_flags.ts";
import type { ApprovalPolicy } from "../../call/approval_rules.ts";

/** `run` options. */
export interface RunArgs extends TurnFlags {
  /** Subcommand. */
  command: "run";
  /** Prompt argument; undefined → read stdin. */
  prompt: string | undefined;
  /** `--session`. */
  session: string | undefined;
  /** `--approve`: the default for a write tool no rule matches. */
  approve: ApproveMode;
  /** Every `--approve` value: the rules in order and the default. */
  approvals: ApprovalPolicy;
  /** `--last-message`. */
  lastMessage: string | undefined;
  /** `--format`: `text` (a transcript) or `ndjson`; undefined → text only when stdout is a terminal. */
  format?: "text" | "ndjson" | undefined;
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

/** `--format text|ndjson` (run, demo), as a property when given. */
function format(value: unknown): { format?: "text" | "ndjson" } {
  const format = oneOf(value, "--format", ["text", "ndjson"]);
  return format === undefined ? {} : { format };
}

/** Parse the arguments after `run`. */
export function parseRunArgs(argv: string[]): RunArgs | { command: "help"; topic: "run" } {
  const { values, positionals } = parseFlags(argv, {
    ...TURN_OPTIONS,
    session: { type: "string" },
    "last-message": { type: "string" },
    format: { type: "string" },
  });
  if (values.help) return { command: "help", topic: "run" };
  const formatted = format(values.format);
  if (positionals.length > 1) {
    throw new UsageError(`Unexpected argument: ${positionals[1]} (quote the prompt)`);
  }
  const approvals = approvePolicy(values, "deny");
  return {
    command: "run",
    prompt: positionals[0],
    approve: approvals.fallback,
    approvals,
    ...turnFlags(values),
    session: optionalSession(values.session),
    lastMessage: optionalString(values["last-message"], "--last-message"),
    ...formatted,
  };
}

/** Parse the arguments after `demo`. */
export function parseDemoArgs(argv: string[]): DemoArgs | { command: "help"; topic: "demo" } {
  const { values, positionals } = parseFlags(argv, {
    deltas: { type: "boolean" },
    format: { type: "string" },
    ...HELP_OPTION,
  });
  if (values.help) return { command: "help", topic: "demo" };
  if (positionals.length > 0) throw new UsageError(`Unexpected argument: ${positionals[0]}`);
  return { command: "demo", deltas: values.deltas === true, ...format(values.format) };
}
