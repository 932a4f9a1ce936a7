/**
 * `batch INPUT.jsonl --out DIR`: check the input, take the shard, skip the
 * items already finished in DIR (or rerun the failed ones with
 * `--retry-failed`), run the rest ({@link BatchRun}), and print one JSON
 * summary line on stdout. Progress goes to stderr when it is a terminal.
 *
 * Exit codes: 0 every selected item completed, 1 some failed (or were not
 * run after repeated backend start failures), 2 usage (bad input, flag or
 * tool module, before anything runs), 130 interrupted.
 *
 * @module
 */

import {
  type ApprovalPolicy,
  ruleText,
  uniformPolicy,
  withConfigRules,
} from "../call/approval_rules.ts";
import process from "node:process";
import { type AgentCommand, resolveAgentCommand } from "../run/agent.ts";
import { ApprovalDecider } from "../run/approvals.ts";
import { exitCode as exitCodeOf } from "../run/exit_codes.ts";
import { isHostError, isReported, UsageError } from "../errors/mod.ts";
import { guardOutput } from "../tool/output_guard.ts";
import {
  currentDir,
  isDirectory,
  onInterrupt,
  readTextFile,
  realPath,
  terminalSafeJson,
  writeStderrLine,
} from "../runtime/mod.ts";
import type { BatchOptions } from "./options.ts";
import { type BatchItem, parseBatchInput } from "./input.ts";
import { Progress } from "./progress.ts";
import { prepareSharedSetup, type SharedSetup } from "./shared_setup.ts";
import { BatchRun, type BatchTotals } from "./run.ts";
import { inShard } from "./shard.ts";
import { BatchStore } from "./store.ts";
import { distinctItemCwds, resolveItemCwds } from "./item_cwd.ts";

const encoder = new TextEncoder();

/** The final stdout line of `batch`. */
export interface BatchSummary {
  /** Items in the input file. */
  input_items: number;
  /** `K/N`, or null. */
  shard: string | null;
  /** Items in this shard. */
  selected: number;
  /** Selected items already finished before this run (not run again). */
  skipped: number;
  /** Items run now that completed. */
  completed: number;
  /** Items run now that failed. */
  failed: number;
  /** Selected items still without a result (interrupted or not started). */
  not_run: number;
  /** Items of the shard whose latest result is a failure (this run's or an earlier one's). */
  failed_total: number;
  /** Whether Ctrl-C stopped the batch. */
  interrupted: boolean;
  /** Wall time of this run, ms. */
  duration_ms: number;
  /** The output folder. */
  out: string;
  /** The exit code. */
  exit_code: number;
}

async function readInput(path: string): Promise<BatchItem[]> {
  let text: string;
  try {
    text = await readTextFile(path);
  } catch (error) {
    throw new UsageError(
      `Cannot read the batch input: ${path}: ${error instanceof Error ? error.message : error}`,
    );
  }
  try {
    return parseBatchInput(text, path);
  } catch (error) {
    if (isHostError(error, "batch_input")) throw new UsageError(error.message);
    throw error;
  }
}

/** What {@link runItems} runs, besides the flags. */
interface ItemsToRun {
  pending: BatchItem[];
  store: BatchStore;
  cwd: string;
  cwds: Map<string, string>;
  agent: AgentCommand;
  /** Receives the run before it starts (Ctrl-C interrupts it). */
  started: (run: BatchRun) => void;
}

/**
 * The flags' approval rules, then the config's; a config rule or default of `ask` is an error
 * (no person answers in a batch).
 */
function batchPolicy(args: BatchOptions, host: SharedSetup): ApprovalPolicy {
  const flags = args.approvals ?? uniformPolicy(args.approve);
  const policy = withConfigRules(flags, host.approvalRules ?? []);
  const ask = policy.rules.find((rule) => rule.decision === "ask");
  if (ask !== undefined || policy.fallback === "ask") {
    const what = ask === undefined ? "its default" : `rule ${ruleText(ask)}`;
    throw new UsageError(
      `The config's approvals say ask (${what}), which batch cannot do (no person answers ` +
        "there): give that tool a decision with --approve allow=TOOL or --approve deny=TOOL",
    );
  }
  return policy;
}

/** Run the pending items on `host`'s shared tools, with the progress bar when asked. */
async function runItems(
  args: BatchOptions,
  host: SharedSetup,
  items: ItemsToRun,
): Promise<BatchTotals> {
  const { pending, cwd, cwds } = items;
  let progress: Progress | null = null;
  const run: BatchRun = new BatchRun({
    items: pending,
    store: items.store,
    jobs: args.jobs,
    registry: host.registry,
    kernelSandbox: args.kernelSandbox,
    kernel: host.kernel,
    toolDirs: host.toolDirs,
    agent: items.agent,
    cwd,
    cwdOf: (item) => cwds.get(item.id) ?? cwd,
    approvals: new ApprovalDecider(batchPolicy(args, host), null),
    deltas: args.deltas,
    failOnToolError: args.failOnToolError,
    ...(host.recordArguments === undefined ? {} : { recordArguments: host.recordArguments }),
    timeoutMs: args.timeoutMs,
    startupTimeoutMs: args.startTimeoutMs,
    stallTimeoutMs: args.stallTimeoutMs,
    onChange: () => progress?.draw(),
  });
  items.started(run);
  const showProgress = args.progress === "always" ||
    (args.progress === "auto" && process.stderr.isTTY === true);
  if (showProgress) {
    progress = new Progress((text) => process.stderr.write(text), () => ({
      total: pending.length,
      done: run.completed,
      failed: run.failed,
      running: run.running,
    }));
  }
  try {
    return await run.run();
  } finally {
    progress?.end();
  }
}

/** `batch`: resolves with the exit code (see the module doc). */
export async function batchCommand(args: BatchOptions): Promise<number> {
  const began = performance.now();
  const items = await readInput(args.input);
  // A real path: item directories are compared with it, and each is looked at again later.
  let cwd = await realPath(currentDir());
  if (args.cwd !== undefined) {
    if (!(await isDirectory(args.cwd))) {
      throw new UsageError(`Option --cwd is not a directory: ${args.cwd}`);
    }
    cwd = await realPath(args.cwd);
  }
  const selected = args.shard === null
    ? items
    : items.filter((item) => inShard(item.id, args.shard!));
  // Every item's working directory is checked before anything runs: a directory inside --cwd.
  const cwds = await resolveItemCwds(selected, { root: cwd, input: args.input });
  let store: BatchStore;
  try {
    store = await BatchStore.open(args.out);
  } catch (error) {
    if (isHostError(error, "usage")) throw error; // Another batch holds the folder.
    throw new UsageError(
      `Cannot open the output folder --out: ${args.out}: ${
        error instanceof Error ? error.message : error
      }`,
    );
  }
  try {
    return await runOpened(args, { began, items, selected, cwd, cwds, store });
  } finally {
    await store.close();
  }
}

/** What {@link runOpened} continues with. */
interface Opened {
  began: number;
  items: BatchItem[];
  selected: BatchItem[];
  cwd: string;
  cwds: Map<string, string>;
  store: BatchStore;
}

/** The batch once its output folder is open (and locked). */
async function runOpened(args: BatchOptions, opened: Opened): Promise<number> {
  const { began, items, selected, cwd, cwds, store } = opened;
  const pending = selected.filter((item) => {
    const entry = store.entries.get(item.id);
    return entry === undefined || (args.retryFailed && entry.exit_code !== exitCodeOf("ok"));
  });
  if (store.readOnly) {
    // Read-only media: fine when nothing is left to run (the recorded outcome stands).
    if (pending.length > 0) {
      throw new UsageError(
        `Cannot open the output folder --out: ${args.out}: it cannot be written ` +
          `(read-only) and ${pending.length} item(s) still need to run`,
      );
    }
    writeStderrLine(
      `magi-tools: the output folder ${args.out} is read-only; every selected item is finished`,
    );
  }
  const agent = await resolveAgentCommand(args.agent);
  const guard = guardOutput();
  let exitCode: number = exitCodeOf("ok");
  // Ctrl-C while the sources start: nothing runs after them (exit 130).
  let interruptedEarly = false;
  let batch: BatchRun | null = null;
  const removeInterrupt = onInterrupt(() => {
    if (batch === null) interruptedEarly = true;
    else batch.interrupt();
  });
  let host: SharedSetup | null = null;
  try {
    let totals: BatchTotals | undefined;
    try {
      if (pending.length > 0) {
        const itemCwds = distinctItemCwds(pending, cwds, cwd);
        const prepared = await prepareSharedSetup(args, { cwd, itemCwds });
        if (isReported(prepared)) return exitCodeOf(prepared.code);
        host = prepared;
      }
      if (host !== null && !interruptedEarly) {
        totals = await runItems(args, host, {
          pending,
          store,
          cwd,
          cwds,
          agent,
          started: (run) => batch = run,
        });
      }
    } finally {
      removeInterrupt();
      await host?.sources.close();
    }
    const selectedIds = new Set(selected.map((item) => item.id));
    let failedTotal = 0;
    let finished = 0;
    for (const [id, entry] of store.entries) {
      if (!selectedIds.has(id)) continue;
      finished++;
      if (entry.exit_code !== exitCodeOf("ok")) failedTotal++;
    }
    if (totals?.fault) writeStderrLine(`magi-tools: ${totals.fault}: ${args.out}`);
    const interrupted = interruptedEarly || (totals?.interrupted ?? false);
    exitCode = exitCodeOf(
      interrupted
        ? "interrupted"
        : totals?.signInRequired != null
        ? "sign_in_required"
        : failedTotal > 0 || finished < selected.length
        ? "run_failed"
        : "ok",
    );
    const summary: BatchSummary = {
      input_items: items.length,
      shard: args.shard === null ? null : `${args.shard.index}/${args.shard.count}`,
      selected: selected.length,
      skipped: selected.length - pending.length,
      completed: totals?.completed ?? 0,
      failed: totals?.failed ?? 0,
      not_run: selected.length - finished,
      failed_total: failedTotal,
      interrupted,
      duration_ms: Math.round(performance.now() - began),
      out: args.out,
      exit_code: exitCode,
    };
    await guard.writeStdout(encoder.encode(`${terminalSafeJson(summary)}\n`));
  } finally {
    guard.restore();
  }
  return exitCode;
}
