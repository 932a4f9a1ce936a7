/**
 * The runner of `process` tools: each call runs in a warm `deno run` process of its tool with
 * exactly its declared permissions (`../sandbox/process_runner.ts`, imported lazily, Deno only).
 * The process parses the arguments and checks the result against the `output` schema; the host
 * parses them first only when it holds the tool's code (a tool imported in the host). The
 * process's output is captured and streamed (`onLog`); a tool that does not settle within the
 * grace after its signal is killed (SIGKILL) and its process replaced.
 *
 * @module
 */

import { invalidArguments, invalidArgumentsFrom, invalidOutputFrom } from "../../tool/answers.ts";
import { permissionDenied, resultTooLarge, toolCrashed } from "../../tool/answers.ts";
import type { Answer } from "../../tool/answers.ts";
import { schemaIssues } from "../approval.ts";
import type { ToolCallRequest } from "../../tool/call.ts";
import { RICH_MARK } from "../../tool/content.ts";
import { hostInputOf, type RegisteredToolOf } from "../../toolset/registry.ts";
import type { ProcessLimits } from "../../sandbox/containment.ts";
import { denialLine } from "../../sandbox/denial.ts";
import type { AnyTool } from "../../sandbox/description.ts";
import type { KernelSupport } from "../../sandbox/kernel_policy.ts";
import { LogBuffer, type ToolLog } from "../../sandbox/log_buffer.ts";
import type { IsolatedOutcome, ProcessRunner } from "../../sandbox/process_runner.ts";
import { supportsProcessIsolation, terminalText } from "../../runtime/mod.ts";
import { errorText, type ToolFailure } from "../settle.ts";
import {
  armToolTimeout,
  CallProgress,
  type Checked,
  type RunControl,
  type RunnerEnv,
  type Settled,
  type ToolRunner,
} from "./runner.ts";

type ProcessEntry = RegisteredToolOf<"process", AnyTool>;

/** Options of {@link ProcessToolRunner} (the executor's, passed on). */
export interface ProcessToolRunnerOptions {
  /** The `deno` executable for tool processes; default the running one (`runtimeExecutable()`). */
  readonly denoPath?: string | undefined;
  /** The kernel layer under the tool processes. */
  readonly kernelSandbox?: "auto" | "off" | KernelSupport | Promise<KernelSupport> | undefined;
  /** How memory caps and a tool's own processes are contained. */
  readonly processLimits?: ProcessLimits | undefined;
  /** Warm processes kept per tool: the calls that may overlap (`concurrent_calls`). */
  readonly concurrentCalls: number;
  /** The protocol's `result_bytes` (a process's `too_large` answer names it). */
  readonly resultBytes: number;
  /** Receives each call's captured output, with the call. */
  readonly onLog: ((log: ToolLog, call: ToolCallRequest) => void) | undefined;
  /** Receives the host's report of a crashed process. */
  readonly onToolFailure: (failure: ToolFailure) => void;
}

/** The runner of `process` tools. */
export class ProcessToolRunner implements ToolRunner<ProcessEntry> {
  readonly #env: RunnerEnv;
  readonly #options: ProcessToolRunnerOptions;
  #runner: Promise<ProcessRunner | null> | undefined;
  #closed = false;

  /** A runner sharing the executor's `env`; starts no process until a call or a prewarm. */
  constructor(env: RunnerEnv, options: ProcessToolRunnerOptions) {
    this.#env = env;
    this.#options = options;
  }

  /** A tool whose code the host holds is parsed here too; a described one by its process. */
  check(entry: ProcessEntry, args: unknown): Checked {
    const parsed = hostInputOf(entry)?.safeParse(args);
    if (parsed !== undefined && !parsed.success) {
      return { success: false, answer: invalidArguments(parsed.error.issues) };
    }
    // The process gets the arguments as the model produced them.
    return { success: true, data: args };
  }

  /** Never put an invalid call to a person: a described tool's schema is checked here. */
  checkForPerson(entry: ProcessEntry, args: unknown): Answer | null {
    if (hostInputOf(entry) !== undefined) return null;
    const issues = schemaIssues(entry.definition.input_schema, args);
    return issues === null ? null : invalidArguments(issues);
  }

  /** Start one warm process for each of `entries`. */
  async prewarm(entries: readonly ProcessEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const runner = await this.#processRunner();
    await Promise.all(entries.map((entry) => runner?.prewarm(entry.tool, entry.file)));
  }

  /** Stop every tool process and wait until they exited. */
  async close(): Promise<void> {
    this.#closed = true;
    const runner = await this.#runner;
    await runner?.close();
  }

  /** Live process IDs of `name`'s tool processes. */
  async pids(name: string): Promise<number[]> {
    const runner = this.#runner === undefined ? null : await this.#runner;
    return runner?.pids(name) ?? [];
  }

  /** Run the call in a process of its tool. */
  async run(entry: ProcessEntry, args: unknown, control: RunControl): Promise<Settled> {
    const runner = this.#closed ? null : await this.#processRunner();
    if (runner === null) {
      const why = this.#closed
        ? "the tool host is shutting down"
        : "this runtime has no process sandbox";
      return { kind: "answer", answer: toolCrashed(why) };
    }
    const { stop, call } = control;
    const env = this.#env;
    const { timeoutTimer, deadline } = armToolTimeout(entry.tool.timeoutMs, control, env.clock);
    const log = new LogBuffer(undefined, {
      deliver: (piece) => this.#deliverLog(piece, call),
      callId: call.callId,
      name: entry.tool.name,
      clock: env.clock,
    });
    const reports = new CallProgress(env, call, entry.tool.name, stop.signal);
    let outcome: IsolatedOutcome;
    try {
      outcome = await runner.run({
        tool: entry.tool,
        file: entry.file,
        message: {
          args,
          callId: call.callId,
          sessionId: call.sessionId,
          runId: call.runId,
          deadline,
          cwd: env.cwd,
          attempt: call.attempt ?? 1,
          resultBytes: this.#options.resultBytes,
          ...(call.traceparent === undefined ? {} : { traceparent: call.traceparent }),
        },
        signal: stop.signal,
        graceMs: env.graceMs,
        log,
        progress: (update) => reports.push(update),
      });
    } finally {
      env.clock.clearTimeout(timeoutTimer);
      reports.close();
    }
    log.finish();
    if (outcome.kind === "crashed" && outcome.interrupted === true && stop.signal.aborted) {
      // A Ctrl-C killed the process and the call's stop followed (the runner waited for it):
      // the caller answers `cancelled`; this is not reported as a crash.
      return { kind: "answer", answer: toolCrashed(outcome.message) };
    }
    return settledOf(entry, outcome, this.#options.resultBytes, this.#options.onToolFailure);
  }

  #deliverLog(log: ToolLog, call: ToolCallRequest): void {
    try {
      this.#options.onLog?.(log, call);
    } catch (error) {
      console.error(`Tool log callback failed: ${errorText(error)}`);
    }
  }

  #processRunner(): Promise<ProcessRunner | null> {
    if (this.#runner === undefined) {
      const { denoPath, kernelSandbox, processLimits, concurrentCalls } = this.#options;
      const cwd = this.#env.cwd;
      // Deno only, and loaded only when a process-isolated tool is used.
      this.#runner = !supportsProcessIsolation()
        ? Promise.resolve(null)
        : import("../../sandbox/process_runner.ts").then(({ ProcessRunner }) =>
          new ProcessRunner({
            cwd,
            ...(denoPath === undefined ? {} : { denoPath }),
            ...(kernelSandbox === undefined ? {} : { kernelSandbox }),
            announceKernel: true,
            ...(processLimits === undefined ? {} : { processLimits }),
            // Calls of one tool may overlap up to concurrent_calls: keep that many warm.
            maxIdle: concurrentCalls,
          })
        );
    }
    return this.#runner;
  }
}

/** An isolated call's outcome as a {@link Settled}. */
function settledOf(
  entry: ProcessEntry,
  outcome: IsolatedOutcome,
  resultBytes: number,
  report: (failure: ToolFailure) => void,
): Settled {
  const tool = entry.tool;
  switch (outcome.kind) {
    case "killed":
      return outcome;
    case "value":
      return { kind: "value", value: outcome.text };
    case "content":
      // Checked with the parts' bounds when settled, as an inline tool's.
      return { kind: "value", value: { [RICH_MARK]: true, content: outcome.parts } };
    case "too_large":
      return { kind: "answer", answer: resultTooLarge(outcome.bytes, resultBytes) };
    case "invalid":
      return { kind: "answer", answer: invalidArgumentsFrom(outcome.text) };
    case "invalid_output":
      return { kind: "answer", answer: invalidOutputFrom(outcome.text) };
    case "thrown":
    case "crashed":
      if (outcome.permission !== undefined) {
        // stderr names what was denied and the fix; the model sees the kind only.
        console.error(terminalText(
          denialLine(
            { name: tool.name, file: entry.file, permission: outcome.permission },
            outcome.message,
          ),
        ));
        return { kind: "answer", answer: permissionDenied(outcome.permission) };
      }
      if (outcome.kind === "crashed") {
        report({
          line: `Tool ${tool.name} (${entry.file}) crashed: ${outcome.message}`,
          frames: [],
        });
        return {
          kind: "answer",
          answer: toolCrashed(`${outcome.message}; it restarts for the next call`),
        };
      }
      return { kind: "thrown", error: remoteError(outcome.message, outcome.stack) };
  }
}

function remoteError(message: string, stack: string | undefined): Error {
  const error = new Error(message);
  error.stack = stack ?? message;
  return error;
}
