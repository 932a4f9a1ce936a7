/**
 * Running a batch: up to `jobs` slots, each keeping one backend connection
 * ({@link BackendRun}) for many items — a new session per item — and starting a
 * new backend only after its connection failed (or for an item with another
 * working directory). All slots share one tool registry; each connection's
 * executor keeps its warm tool processes from item to item.
 *
 * An item's records go to memory while it runs; when it finishes they are
 * committed to the {@link BatchStore} (file renamed into place, then the
 * index line). An item interrupted by Ctrl-C (exit 130) is not committed, so
 * the next run of the same command runs it again.
 *
 * @module
 */

import { EXIT, exitCode } from "../run/exit_codes.ts";
import { isReported, type Reported } from "../errors/mod.ts";
import { BackendRun } from "../run/backend_run.ts";
import type { AgentCommand } from "../run/agent.ts";
import type { ArgumentsRecorder } from "../run/record_args.ts";
import type { ApprovalDecider } from "../run/approvals.ts";
import type { KernelSandboxMode } from "../run/kernel_sandbox.ts";
import { runTurnScope } from "../run/turn_scope.ts";
import type { KernelSupport } from "../sandbox/kernel_policy.ts";
import type { ToolRegistry } from "../toolset/registry.ts";
import { writeStderrLine } from "../runtime/mod.ts";
import { SummaryWriter } from "../summary/writer.ts";
import { entryFromRecords, type IndexEntry, parseRecords } from "./index_entry.ts";
import type { BatchItem } from "./input.ts";
import { cwdChanged } from "./item_cwd.ts";
import type { BatchStore } from "./store.ts";

/** After this many backend start failures in a row, no further item is started. */
export const MAX_STARTUP_FAILURES = 3;

/** Options of {@link BatchRun}. */
export interface BatchRunOptions {
  /** The items to run now (already sharded, finished ones left out). */
  items: readonly BatchItem[];
  /** Where finished items go. */
  store: BatchStore;
  /** Slots (turns at once). */
  jobs: number;
  /** The loaded tools (modules and the config's sources' tools), shared by every slot. */
  registry: ToolRegistry;
  /** `--require-kernel-sandbox` / `--no-kernel-sandbox` (default `auto`). */
  kernelSandbox?: KernelSandboxMode;
  /** The kernel probe's answer, probed once for the batch (default: each slot probes). */
  kernel?: KernelSupport;
  /** Tool directories (for messages only; the registry is loaded). */
  toolDirs: string[];
  /** Backend command. */
  agent: AgentCommand;
  /** Working directory of items without their own (absolute). */
  cwd: string;
  /** Resolve an item's `cwd` (absolute, checked before the batch starts). */
  cwdOf: (item: BatchItem) => string;
  /** Approval policy of every turn. */
  approvals: ApprovalDecider;
  /** Record `message.delta` too. */
  deltas: boolean;
  /**
   * `--fail-on-tool-error`: an item whose completed turn had a tool error or denial
   * exits 1 (`turn.finished` `exit_reason:"tool_errors"`), as `run` does.
   */
  failOnToolError?: boolean;
  /** `--record-args`: each call's arguments (secrets redacted) on its `tool.call` record. */
  recordArguments?: ArgumentsRecorder;
  /** Per-item deadline of the turn (session and turn), ms. */
  timeoutMs: number | undefined;
  /** Deadline of a backend start (spawn to its `initialize` answer), ms (`--start-timeout`). */
  startupTimeoutMs: number;
  /** Backend stall timeout, ms (0 disables). */
  stallTimeoutMs: number;
  /** Called when an item starts and when it finishes (committed or not). */
  onChange?: () => void;
}

/** What a batch run did. */
export interface BatchTotals {
  /** Items committed with exit code 0. */
  completed: number;
  /** Items committed with another exit code. */
  failed: number;
  /** Items not run or not committed (interrupted, or stopped after repeated start failures). */
  notRun: number;
  /** Whether Ctrl-C stopped the batch. */
  interrupted: boolean;
  /** Why the batch stopped early (start failures), or null. */
  abandoned: string | null;
  /** Why the output could not be written (the batch stopped), or null. */
  fault: string | null;
  /**
   * An item ended because an MCP server needs a sign-in (`host.error` `sign_in_required`): the
   * batch stopped (exit 2); the message naming `magi-tools login NAME`, or null.
   */
  signInRequired: string | null;
}

/** One slot: a backend connection reused from item to item. */
interface Slot {
  host: BackendRun | null;
  /** The working directory of `host`. */
  cwd: string | null;
}

/** A batch in progress (see the module doc). */
export class BatchRun {
  readonly #options: BatchRunOptions;
  readonly #slots: Slot[] = [];
  #next = 0;
  #stopping = false;
  #interrupts = 0;
  #startupFailures = 0;
  #abandoned: string | null = null;
  /** Items whose backend failed to start after the batch was abandoned: left not run. */
  readonly #afterAbandon = new Set<string>();
  #fault: string | null = null;
  #signInRequired: string | null = null;
  #running = 0;
  #completed = 0;
  #failed = 0;

  /** Prepare the batch; nothing starts before {@link BatchRun.run}. */
  constructor(options: BatchRunOptions) {
    this.#options = options;
  }

  /** Items running now. */
  get running(): number {
    return this.#running;
  }

  /** Items committed with exit code 0. */
  get completed(): number {
    return this.#completed;
  }

  /** Items committed with another exit code. */
  get failed(): number {
    return this.#failed;
  }

  /**
   * Ctrl-C: the first stops starting items and cancels the running turns; the next
   * stops their backends at once (as a second SIGINT does for `run`).
   */
  interrupt(): void {
    this.#interrupts++;
    this.#stopping = true;
    for (const slot of this.#slots) slot.host?.interrupt();
  }

  /** Run every item; resolves when all slots have stopped and their backends are reaped. */
  async run(): Promise<BatchTotals> {
    const { items, jobs } = this.#options;
    const count = Math.min(jobs, items.length);
    const loops: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      const slot: Slot = { host: null, cwd: null };
      this.#slots.push(slot);
      loops.push(this.#slotLoop(slot));
    }
    await Promise.all(loops);
    return {
      completed: this.#completed,
      failed: this.#failed,
      notRun: items.length - this.#completed - this.#failed,
      interrupted: this.#interrupts > 0,
      abandoned: this.#abandoned,
      fault: this.#fault,
      signInRequired: this.#signInRequired,
    };
  }

  async #slotLoop(slot: Slot): Promise<void> {
    try {
      for (;;) {
        if (this.#stopping) return;
        const item = this.#options.items[this.#next];
        if (item === undefined) return;
        this.#next++;
        await this.#runItem(slot, item);
      }
    } catch (error) {
      // The output folder cannot be written (disk full, removed): stop the whole batch.
      this.#fault ??= `Cannot write to the output folder: ${
        error instanceof Error ? error.message : String(error)
      }`;
      this.#stopping = true;
    } finally {
      await slot.host?.stop();
      slot.host = null;
    }
  }

  async #runItem(slot: Slot, item: BatchItem): Promise<void> {
    const options = this.#options;
    const chunks: Uint8Array[] = [];
    const writer = new SummaryWriter((bytes) => {
      chunks.push(bytes.slice());
      return Promise.resolve();
    });
    // Recorded before it runs: a kill from here on makes the next run attempt N + 1.
    const attempt = await options.store.start(item.id);
    const startedAt = new Date();
    const started = performance.now();
    this.#running++;
    options.onChange?.();
    let code: number | null;
    try {
      code = await this.#attempt(slot, item, writer, attempt);
    } finally {
      this.#running--;
    }
    await writer.flush();
    // Stopped by SIGINT (130) or SIGTERM (143), or a start that failed after the batch gave up
    // on its backend (one of the starts in flight then), or not run (its directory changed): not
    // committed, it stays not run.
    if (
      code !== null && code !== EXIT.interrupted && code !== EXIT.terminated &&
      !this.#afterAbandon.has(item.id)
    ) {
      const bytes = concat(chunks);
      const entry: IndexEntry = entryFromRecords(
        item.id,
        parseRecords(new TextDecoder().decode(bytes)),
        { startedAt, durationMs: Math.round(performance.now() - started) },
      );
      entry.exit_code = code;
      entry.attempt = attempt;
      await options.store.commit(item.id, bytes, entry);
      if (code === exitCode("ok")) this.#completed++;
      else this.#failed++;
      if (entry.error?.startsWith(SIGN_IN_PREFIX) === true && this.#signInRequired === null) {
        // Every later item would meet the same refusal: stop, naming the sign-in to run.
        this.#signInRequired = entry.error.slice(SIGN_IN_PREFIX.length);
        this.#stop(this.#signInRequired);
      }
    }
    options.onChange?.();
  }

  /**
   * Start (or reuse) the slot's backend and run the item's turn; resolves with its exit code,
   * or null when the item is not run (its directory changed since it was checked: the batch
   * stops).
   */
  async #attempt(
    slot: Slot,
    item: BatchItem,
    writer: SummaryWriter,
    attempt: number,
  ): Promise<number | null> {
    const options = this.#options;
    const cwd = options.cwdOf(item);
    const changed = await cwdChanged(cwd);
    if (changed !== null) {
      this.#stop(
        `the working directory ${cwd} of item ${item.id} changed since it was checked: ${changed}`,
      );
      return null;
    }
    const fresh = slot.host === null || slot.cwd !== cwd;
    const host = await this.#connection(slot, cwd, writer, item.id);
    if (typeof host === "number") return host;
    if (this.#stopping) host.interrupt();
    if (this.#interrupts > 1) host.interrupt();
    const { prompt, session } = item;
    const { deltas, approvals } = options;
    const code = await runTurnScope(host, {
      turn: {
        prompt,
        session,
        writer,
        deltas,
        approvals,
        lastMessage: undefined,
        announce: !fresh,
        attempt,
        label: `item ${item.id}`,
      },
      initialize: fresh,
      // A new backend has its own start deadline; --timeout then covers the item's turn.
      ...(fresh ? { startupTimeoutMs: options.startupTimeoutMs } : {}),
      timeoutMs: options.timeoutMs,
      // Each item counts its own tool errors, on its own writer.
      failOnToolError: options.failOnToolError === true,
      keep: true,
      onReady: () => {
        this.#startupFailures = 0;
      },
      onFailure: (code) => {
        if (code === exitCode("startup_failed")) this.#startupFailed(`exit ${code}`, item.id);
      },
    });
    // Stopped after a failure: the next item starts a new backend.
    if (host.stopped && slot.host === host) slot.host = null;
    return code;
  }

  /**
   * The slot's connection for `cwd`: the one it has, or a new one (the old one stopped
   * first when it has another working directory); a failed start's exit code.
   */
  async #connection(
    slot: Slot,
    cwd: string,
    writer: SummaryWriter,
    itemId: string,
  ): Promise<BackendRun | number> {
    if (slot.host !== null && slot.cwd === cwd) return slot.host;
    if (slot.host !== null) {
      await slot.host.stop();
      slot.host = null;
    }
    const host = await this.#start(cwd, writer, itemId);
    if (isReported(host)) return exitCode(host.code);
    slot.host = host;
    slot.cwd = cwd;
    return host;
  }

  /** A new backend connection for `cwd`, or its failed start (already reported). */
  async #start(cwd: string, writer: SummaryWriter, itemId: string): Promise<BackendRun | Reported> {
    const options = this.#options;
    const started = await BackendRun.start({
      toolDirs: options.toolDirs,
      registry: options.registry,
      agent: options.agent,
      cwd,
      stallTimeoutMs: options.stallTimeoutMs,
      ...(options.recordArguments === undefined
        ? {}
        : { recordArguments: options.recordArguments }),
      ...(options.kernelSandbox === undefined ? {} : { kernelSandbox: options.kernelSandbox }),
      ...(options.kernel === undefined ? {} : { kernel: options.kernel }),
      writer,
    });
    if (isReported(started)) this.#startupFailed("the backend command cannot be spawned", itemId);
    return started;
  }

  /**
   * Count a failed start of item `itemId`'s backend; the {@link MAX_STARTUP_FAILURES}th in a row
   * abandons the batch. A start still in flight then that fails too is not counted (the count
   * and the items recorded as failed stay {@link MAX_STARTUP_FAILURES}): its item stays not run.
   */
  #startupFailed(why: string, itemId: string): void {
    if (this.#abandoned !== null) {
      this.#afterAbandon.add(itemId);
      return;
    }
    this.#startupFailures++;
    if (this.#startupFailures >= MAX_STARTUP_FAILURES) {
      this.#stop(`the backend failed to start ${this.#startupFailures} times in a row (${why})`);
    }
  }

  /** Start no further item, saying why on stderr (once). */
  #stop(why: string): void {
    if (this.#abandoned !== null) return;
    this.#abandoned = why;
    writeStderrLine(`magi-tools: Batch stopped: ${why}`);
    this.#stopping = true;
  }
}

/** An index entry's `error` of an item that ended because a source needs a sign-in. */
const SIGN_IN_PREFIX = "sign_in_required: ";

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
