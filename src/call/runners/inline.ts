/**
 * The runner of `inline` tools: a module tool's `run` in the host process (declared
 * `isolation: "inline"`, or every module tool where the runtime has no process sandbox,
 * Node.js). Its arguments are parsed by its zod schema here and its result checked against its
 * `output` schema here. An inline tool cannot be killed: signalled, it gets the grace, then the
 * call is answered without it (`abandoned`) and its eventual result is ignored.
 *
 * {@link runInHost} is shared with the external runner (`external.ts`).
 *
 * @module
 */

import type { TimerId } from "../../async/clock.ts";
import type { Tool, ToolContext } from "../../tool/define.ts";
import type { ExternalToolContext } from "../../tool/external.ts";
import { invalidArguments, invalidOutput } from "../../tool/answers.ts";
import type { ToolCallRequest } from "../../tool/call.ts";
import { progressUpdate } from "../../tool/progress.ts";
import type { RegisteredToolOf } from "../../toolset/registry.ts";
import {
  armToolTimeout,
  CallProgress,
  type Checked,
  type RunControl,
  type RunnerEnv,
  type Settled,
  type ToolRunner,
} from "./runner.ts";

/** What runs in the host: a tool module's or an external tool's `run`. */
export interface HostRunnable {
  readonly name: string;
  readonly timeoutMs?: number | undefined;
  // deno-lint-ignore no-explicit-any -- a module tool's or a source's context (see runInHost)
  run(args: Record<string, unknown>, ctx: any): unknown;
}

/** The runner of `inline` tools. */
export class InlineRunner implements ToolRunner<RegisteredToolOf<"inline", Tool>> {
  readonly #env: RunnerEnv;

  /** A runner sharing the executor's `env`. */
  constructor(env: RunnerEnv) {
    this.#env = env;
  }

  /** Parse the arguments with the tool's schema. */
  check(entry: RegisteredToolOf<"inline", Tool>, args: unknown): Checked {
    const parsed = entry.tool.input.safeParse(args);
    return parsed.success
      ? parsed
      : { success: false, answer: invalidArguments(parsed.error.issues) };
  }

  /** Run the tool in the host; its result is checked against its `output` schema here. */
  async run(
    entry: RegisteredToolOf<"inline", Tool>,
    args: unknown,
    control: RunControl,
  ): Promise<Settled> {
    const tool = entry.tool;
    const settled = await runInHost(
      this.#env,
      tool,
      (args ?? {}) as Record<string, unknown>,
      control,
      moduleProgress,
    );
    // A stopped call is answered as stopped: its value is not checked.
    if (settled.kind !== "value" || tool.output === undefined || control.stop.signal.aborted) {
      return settled;
    }
    const checked = tool.output.safeParse(settled.value);
    if (!checked.success) return { kind: "answer", answer: invalidOutput(checked.error.issues) };
    return { kind: "value", value: checked.data };
  }
}

/** A module tool's `ctx.progress(done, total?, message?)` over the call's progress. */
function moduleProgress(progress: CallProgress): ToolContext["progress"] {
  return (done, total, message) => progress.push(progressUpdate(done, total, message));
}

/**
 * Run `tool` in the host under `control`: its own `timeoutMs` armed, a frozen context (with
 * the progress reporter `progress` makes of the call's {@link CallProgress}), and once the
 * signal fired, `env.graceMs` to settle before the call is answered without it (`abandoned`).
 * A synchronous throw is the tool's failure; a value that is not an object (no thenable) is
 * settled at once, without waiting on a promise.
 */
export async function runInHost(
  env: RunnerEnv,
  tool: HostRunnable,
  args: Record<string, unknown>,
  control: RunControl,
  progress: (calls: CallProgress) => ToolContext["progress"] | ExternalToolContext["progress"],
): Promise<Settled> {
  const { stop, call } = control;
  const clock = env.clock;
  const { timeoutTimer, deadline } = armToolTimeout(tool.timeoutMs, control, clock);
  const reports = new CallProgress(env, call, tool.name, stop.signal);
  const ctx = contextOf(call, stop.signal, deadline, env.cwd, progress(reports));
  let graceTimer: TimerId | undefined;
  let onStop: (() => void) | undefined;
  try {
    let value: unknown;
    try {
      value = tool.run(args, ctx);
    } catch (error) {
      return { kind: "thrown", error };
    }
    if ((typeof value !== "object" && typeof value !== "function") || value === null) {
      return { kind: "value", value };
    }
    return await new Promise<Settled>((resolve) => {
      onStop = () => {
        graceTimer = clock.setTimeout(() => resolve({ kind: "abandoned" }), env.graceMs);
      };
      // A thenable is adopted (and may reject) as the tool's own promise.
      new Promise<unknown>((settle) => settle(value)).then(
        (value) => resolve({ kind: "value", value }),
        (error: unknown) => resolve({ kind: "thrown", error }),
      );
      if (stop.signal.aborted) onStop();
      else stop.signal.addEventListener("abort", onStop, ONCE);
    });
  } finally {
    clock.clearTimeout(timeoutTimer);
    clock.clearTimeout(graceTimer);
    if (onStop !== undefined) stop.signal.removeEventListener("abort", onStop);
    reports.close();
  }
}

const ONCE = Object.freeze({ once: true });

/** A tool's frozen context (`ToolContext`, or a source's `ExternalToolContext`: `progress` differs). */
function contextOf(
  call: ToolCallRequest,
  signal: AbortSignal,
  deadline: number,
  cwd: string,
  progress: ToolContext["progress"] | ExternalToolContext["progress"],
) {
  const { callId, sessionId, runId, traceparent } = call;
  const attempt = call.attempt ?? 1;
  return Object.freeze(
    traceparent === undefined
      ? { signal, callId, sessionId, runId, deadline, cwd, attempt, progress }
      : { signal, callId, sessionId, runId, deadline, cwd, attempt, traceparent, progress },
  );
}
