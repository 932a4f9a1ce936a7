/**
 * Command-line parsing of `batch` and `report` (strict `node:util`
 * parseArgs, as the other commands). Every error names the flag.
 *
 * @module
 */

import {
  optionalString as text,
  parseFlags as parse,
  type ToolDirArgs,
  toolDirArgs,
} from "./_flags.ts";
import { UsageError } from "../../run/exit_codes.ts";
import {
  CONFIG_OPTIONS,
  type ConfigArgs,
  configArgs,
  KERNEL_OPTIONS,
  kernelSandboxMode,
} from "./host.ts";
import type { KernelSandboxMode } from "../../run/kernel_sandbox.ts";
import { DEFAULT_STALL_TIMEOUT_MS } from "../../run/liveness.ts";

/** One share of the items: `index` in 1..`count`. */
export interface Shard {
  /** 1-based share number (K of `K/N`). */
  readonly index: number;
  /** Number of shares (N of `K/N`). */
  readonly count: number;
}

/** Largest N of `--shard K/N`. */
export const MAX_SHARDS = 10_000;

/** Parse `K/N` (1 ≤ K ≤ N ≤ {@link MAX_SHARDS}); throws RangeError naming the value. */
export function parseShard(text: string): Shard {
  const match = /^(\d{1,5})\/(\d{1,5})$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || !(count >= 1) || count > MAX_SHARDS || !(index >= 1) || index > count) {
    throw new RangeError(
      `Option --shard must be K/N with 1 <= K <= N <= ${MAX_SHARDS}: ${text}`,
    );
  }
  return { index, count };
}

/** Largest `--jobs`. */
export const MAX_JOBS = 64;

/** `batch` options (the config flags as `run` takes them). */
export interface BatchArgs extends ConfigArgs, ToolDirArgs {
  /** Subcommand. */
  command: "batch";
  /** The input JSON Lines file. */
  input: string;
  /** `--out` output folder. */
  out: string;
  /** `--jobs`: turns at once, one backend each (default 1). */
  jobs: number;
  /** `--shard K/N`, or null for all items. */
  shard: Shard | null;
  /** `--retry-failed`: rerun items whose index entry has a non-zero exit code. */
  retryFailed: boolean;
  /** `--agent` command line. */
  agent: string | undefined;
  /** `--cwd`: default working directory of the items. */
  cwd: string | undefined;
  /** `--approve` (`deny` or `allow`; `ask` needs one terminal per turn, so not here). */
  approve: "deny" | "allow";
  /** `--deltas`: also record `message.delta`. */
  deltas: boolean;
  /** `--timeout` per item, ms. */
  timeoutMs: number | undefined;
  /** `--stall-timeout`, ms (0 disables). */
  stallTimeoutMs: number;
  /** `--progress`: force the progress bar on (`always`), off (`never`) or on a terminal. */
  progress: "auto" | "always" | "never";
  /** `--fail-on-tool-error`: an item whose turn had a tool error or denial fails (exit 1). */
  failOnToolError: boolean;
  /** `--require-kernel-sandbox` (`require`), `--no-kernel-sandbox` (`off`), else `auto`. */
  kernelSandbox: KernelSandboxMode;
}

/** `report` options. */
export interface ReportArgs {
  /** Subcommand. */
  command: "report";
  /** Output folders of one or more batches (shards). */
  dirs: string[];
  /** `--markdown FILE` (`-` = stdout). */
  markdown: string | undefined;
  /** `--html FILE`. */
  html: string | undefined;
  /** `--item ID`: the item whose tool calls the HTML timeline shows (default: the slowest). */
  item: string | undefined;
}

function seconds(value: unknown, flag: string, zero: boolean): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+(\.\d+)?$/.test(String(value)) || number > 86_400 || (!zero && !(number > 0))) {
    throw new UsageError(
      `Option ${flag} must be a number of seconds in ${zero ? "[0" : "(0"}, 86400]: ${value}`,
    );
  }
  return Math.round(number * 1000);
}

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
  const { values, positionals } = parse(argv, {
    out: { type: "string" },
    jobs: { type: "string" },
    shard: { type: "string" },
    "retry-failed": { type: "boolean" },
    tools: { type: "string", multiple: true },
    agent: { type: "string" },
    cwd: { type: "string" },
    approve: { type: "string" },
    deltas: { type: "boolean" },
    timeout: { type: "string" },
    "stall-timeout": { type: "string" },
    progress: { type: "string" },
    "fail-on-tool-error": { type: "boolean" },
    ...KERNEL_OPTIONS,
    ...CONFIG_OPTIONS,
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return { command: "help", topic: "batch" };
  const kernelSandbox = kernelSandboxMode(values);
  const config = configArgs(values);
  const input = positionals[0];
  if (input === undefined || input === "") throw new UsageError("Command batch needs INPUT.jsonl");
  if (positionals.length > 1) throw new UsageError(`Unexpected argument: ${positionals[1]}`);
  const out = text(values.out, "--out");
  if (out === undefined) throw new UsageError("Command batch needs --out DIR");
  let jobs = 1;
  if (values.jobs !== undefined) {
    jobs = Number(values.jobs);
    if (!/^\d+$/.test(String(values.jobs)) || jobs < 1 || jobs > MAX_JOBS) {
      throw new UsageError(`Option --jobs must be an integer in [1, ${MAX_JOBS}]: ${values.jobs}`);
    }
  }
  let shard: Shard | null = null;
  const shardText = text(values.shard, "--shard");
  if (shardText !== undefined) {
    try {
      shard = parseShard(shardText);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const approve = text(values.approve, "--approve") ?? "deny";
  if (approve === "ask") {
    throw new UsageError("Option --approve ask is not available in batch: use deny or allow");
  }
  if (approve !== "deny" && approve !== "allow") {
    throw new UsageError(`Option --approve must be deny or allow: ${approve}`);
  }
  const progress = text(values.progress, "--progress") ?? "auto";
  if (progress !== "auto" && progress !== "always" && progress !== "never") {
    throw new UsageError(`Option --progress must be auto, always or never: ${progress}`);
  }
  return {
    command: "batch",
    input,
    out,
    jobs,
    shard,
    retryFailed: values["retry-failed"] === true,
    ...toolDirArgs(values.tools),
    agent: text(values.agent, "--agent"),
    cwd: text(values.cwd, "--cwd"),
    approve,
    deltas: values.deltas === true,
    timeoutMs: seconds(values.timeout, "--timeout", false),
    stallTimeoutMs: seconds(values["stall-timeout"], "--stall-timeout", true) ??
      DEFAULT_STALL_TIMEOUT_MS,
    progress,
    failOnToolError: values["fail-on-tool-error"] === true,
    kernelSandbox,
    ...config,
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
  const { values, positionals } = parse(argv, {
    markdown: { type: "string" },
    html: { type: "string" },
    item: { type: "string" },
    help: { type: "boolean", short: "h" },
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
