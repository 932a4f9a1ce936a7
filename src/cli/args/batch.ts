/**
 * Command-line parsing of `batch` (the flags of a turn it shares with `run`, `args/turn_flags.ts`)
 * and `report`. Every error names the flag.
 *
 * @module
 */

import type { BatchOptions } from "../../batch/options.ts";
import { parseShard, type Shard } from "../../batch/shard.ts";
import type { ReportOptions } from "../../report/command.ts";
import { UsageError } from "../../errors/mod.ts";
import { integer, oneOf, optionalString as text, parseFlags } from "./_flags.ts";
import { approvePolicy, HELP_OPTION, TURN_OPTIONS, turnFlags } from "./turn_flags.ts";

/** Largest `--jobs`. */
export const MAX_JOBS = 64;

/** `batch` options. */
export type BatchArgs = BatchOptions & { command: "batch" };

/** `report` options. */
export type ReportArgs = ReportOptions & { command: "report" };

/**
 * Parse `batch` arguments (after the subcommand).
 *
 * @example
 * ```ts
 * import { parseBatchArgs } from "./batch.ts";
 * const args = parseBatchArgs(["in.jsonl", "--out", "out", "--jobs", "4", "--shard", "1/2"]);
 * console.assert(args.command === "batch" && args.jobs === 4 && args.shard?.count === 2);
 * ```
 */
export function parseBatchArgs(argv: string[]): BatchArgs | { command: "help"; topic: "batch" } {
  const { values, positionals } = parseFlags(argv, {
    out: { type: "string" },
    jobs: { type: "string" },
    shard: { type: "string" },
    "retry-failed": { type: "boolean" },
    progress: { type: "string" },
    ...TURN_OPTIONS,
  });
  if (values.help) return { command: "help", topic: "batch" };
  const flags = turnFlags(values);
  const input = positionals[0];
  if (input === undefined || input === "") throw new UsageError("Command batch needs INPUT.jsonl");
  if (positionals.length > 1) throw new UsageError(`Unexpected argument: ${positionals[1]}`);
  const out = text(values.out, "--out");
  if (out === undefined) throw new UsageError("Command batch needs --out DIR");
  const jobs = integer(values.jobs, "--jobs", 1, MAX_JOBS) ?? 1;
  let shard: Shard | null = null;
  const shardText = text(values.shard, "--shard");
  if (shardText !== undefined) {
    try {
      shard = parseShard(shardText);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  // No person watches a batch: ask (as the default or in a rule) is a usage error.
  const approvals = approvePolicy(
    values,
    "deny",
    ["allow", "deny"],
    " in batch (no person answers there)",
  );
  return {
    command: "batch",
    input,
    out,
    jobs,
    shard,
    retryFailed: values["retry-failed"] === true,
    approve: approvals.fallback === "allow" ? "allow" : "deny",
    approvals,
    progress: oneOf(values.progress, "--progress", ["auto", "always", "never"], "auto"),
    ...flags,
  };
}

/**
 * Parse `report` arguments (after the subcommand).
 *
 * @example
 * ```ts
 * import { parseReportArgs } from "./batch.ts";
 * const args = parseReportArgs(["out1", "out2", "--markdown", "-"]);
 * console.assert(args.command === "report" && args.dirs.length === 2);
 * ```
 */
export function parseReportArgs(argv: string[]): ReportArgs | { command: "help"; topic: "report" } {
  const { values, positionals } = parseFlags(argv, {
    markdown: { type: "string" },
    html: { type: "string" },
    item: { type: "string" },
    ...HELP_OPTION,
  });
  if (values.help) return { command: "help", topic: "report" };
  if (positionals.length === 0) throw new UsageError("Command report needs at least one DIR");
  for (const dir of positionals) if (dir === "") throw new UsageError("Command report: empty DIR");
  return {
    command: "report",
    dirs: positionals,
    markdown: text(values.markdown, "--markdown"),
    html: text(values.html, "--html"),
    item: text(values.item, "--item"),
  };
}
