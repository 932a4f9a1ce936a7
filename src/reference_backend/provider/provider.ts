/**
 * The scripted provider: executes a turn's steps (from a scenario or the default planner)
 * through the run's actions. Deterministic: the same prompt, scenario and tool results give
 * the same events.
 *
 * @module
 */

import type { ErrorCode } from "../../protocol/errors.ts";
import type { ToolResult } from "../client_tools/calls.ts";
import type { CallStep, Step } from "./scenario.ts";

/** The run fails with `code`. */
export class RunFailure extends Error {
  /** The run's `error_code`. */
  readonly code: ErrorCode;
  /** Fail the run with `code`. */
  constructor(code: ErrorCode) {
    super(`Run failed: ${code}`);
    this.name = "RunFailure";
    this.code = code;
  }
}

/** The run was cancelled while steps were executing. */
export class RunCancelled extends Error {
  /** Create the cancellation marker. */
  constructor() {
    super("Run cancelled");
    this.name = "RunCancelled";
  }
}

/** What a step can ask of the run. */
export interface RunActions {
  /** One assistant segment. */
  say(text: string): Promise<void>;
  /** Client tool calls started together; results in the order of `calls`. */
  callTools(calls: readonly CallStep[]): Promise<ToolResult[]>;
  /** A simulated built-in tool activity. */
  builtin(step: Extract<Step, { kind: "builtin" }>): Promise<ToolResult>;
  /** A diagnostic event. */
  diagnostic(code: string, summary: string): Promise<void>;
  /** Durable session metadata: a title record. */
  title(text: string): Promise<void>;
  /** A stored reasoning summary (history only, with its provenance). */
  reasoning(step: Extract<Step, { kind: "reasoning" }>): Promise<void>;
  /** A compaction activity and record. */
  compaction(step: Extract<Step, { kind: "compaction" }>): Promise<void>;
}

/** A labelled tool result of the turn so far. */
interface Labelled {
  label: string | null;
  name: string;
  result: ToolResult;
}

/** Execute `steps` in order; throws {@link RunFailure} or {@link RunCancelled}. */
export async function executeSteps(
  steps: readonly Step[],
  actions: RunActions,
  signal: AbortSignal,
): Promise<void> {
  const results: Labelled[] = [];
  for (const step of steps) {
    if (signal.aborted) throw new RunCancelled();
    switch (step.kind) {
      case "say": {
        const text = step.literal ? step.text : expandPlaceholders(step.text, results);
        await actions.say(step.repeat === 1 ? text : text.repeat(step.repeat));
        break;
      }
      case "call": {
        const out = await actions.callTools(step.calls);
        step.calls.forEach((call, i) => {
          const result = out[i];
          if (result !== undefined) results.push({ label: call.label, name: call.tool, result });
        });
        break;
      }
      case "builtin":
        results.push({ label: step.label, name: step.tool, result: await actions.builtin(step) });
        break;
      case "sleep":
        await sleep(step.ms, signal);
        break;
      case "diagnostic":
        await actions.diagnostic(step.code, step.summary);
        break;
      case "title":
        await actions.title(step.text);
        break;
      case "reasoning":
        await actions.reasoning(step);
        break;
      case "compaction":
        await actions.compaction(step);
        break;
      case "fail":
        throw new RunFailure(step.code);
    }
  }
  if (signal.aborted) throw new RunCancelled();
}

/** Replace `{{result:<label>}}` and `{{results}}` in `text`. */
export function expandPlaceholders(text: string, results: readonly Labelled[]): string {
  return text.replace(/\{\{results\}\}|\{\{result:([A-Za-z0-9._-]{1,64})\}\}/g, (_, label) => {
    if (label === undefined) return results.map((r) => formatResult(r.name, r.result)).join("\n");
    return results.find((r) => r.label === label)?.result.text ?? "";
  });
}

/** One `name → text` line describing a tool result. */
export function formatResult(name: string, result: ToolResult): string {
  switch (result.outcome) {
    case "success":
      return `${name} → ${result.text}`;
    case "error":
      return `${name} → error${result.errorCode ? ` (${result.errorCode})` : ""}: ${result.text}`;
    case "failed":
      return `${name} → failed (${result.errorCode ?? "execution_failed"})`;
    default:
      return `${name} → ${result.outcome}`;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new RunCancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunCancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
