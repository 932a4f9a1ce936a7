/**
 * Shared request shapes and multi-step helpers of the conformance suite.
 *
 * @module
 */

import { type Backend, type EventFrame, withBackend, Workspace } from "./_harness.ts";

/** The sixteen base capabilities, in the base protocol's order. */
export const BASE_CAPABILITIES: readonly string[] = [
  "initialize",
  "status",
  "shutdown",
  "session.create",
  "session.open",
  "session.list",
  "session.discover",
  "model.catalog",
  "model.catalog.status",
  "model.refresh",
  "operation.cancel",
  "selection.set",
  "history.page",
  "turn.start",
  "turn.cancel",
  "approval.answer",
];

/** Capabilities the part-1 tests require. */
export const PART1_CAPABILITIES: readonly string[] = [
  "status",
  "shutdown",
  "session.create",
  "session.open",
  "turn.start",
  "turn.cancel",
  "approval.answer",
];

/** A client tool definition as sent in `client_tools`. */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  effect: "read" | "write";
  timeout_ms?: number;
}

/** A read tool definition named `name`. */
export function readTool(name = "lookup"): ToolDefinition {
  return {
    name,
    description: `Look something up (${name}).`,
    input_schema: { type: "object", properties: { q: { type: "string" } } },
    effect: "read",
  };
}

/** A write tool definition named `name`. */
export function writeTool(name = "save_note"): ToolDefinition {
  return {
    name,
    description: "Save a note.",
    input_schema: { type: "object", properties: { text: { type: "string" } } },
    effect: "write",
  };
}

/** Initialize with the part-1 capabilities (plus `client.tools` when `tools` is given). */
export async function initialize(
  backend: Backend,
  tools?: readonly ToolDefinition[],
): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = {
    required_capabilities: tools === undefined
      ? [...PART1_CAPABILITIES]
      : [...PART1_CAPABILITIES, "client.tools"],
  };
  if (tools !== undefined) {
    params.client_tools = tools;
    backend.allowClientTools();
  }
  return await backend.call("initialize", params);
}

/** The planner prompt asking for `tool {args}` calls, one per entry. */
export function toolPrompt(
  calls: ReadonlyArray<readonly [string, Record<string, unknown>]>,
): string {
  const lines = calls.map(([name, args]) => `${name} ${JSON.stringify(args)}`);
  return `Please run these tools:\n${lines.join("\n")}`;
}

/** A started run. */
export interface Run {
  sessionId: string;
  runId: string;
  /** Index of the first frame after the turn.start response. */
  from: number;
}

/** Create a session and start a turn with `prompt`. */
export async function startTurn(
  backend: Backend,
  prompt: string,
  sessionId?: string,
): Promise<Run> {
  const sid = sessionId ?? String((await backend.call("session.create")).session_id);
  // The previous run's cleanup may still make turn.start busy ("another run/cleanup").
  const res = await backend.requestWhenFree("turn.start", { session_id: sid, prompt });
  if (res.result === undefined) throw new Error(`turn.start failed: ${res.error?.code}`);
  return { sessionId: sid, runId: String(res.result.run_id), from: res.index };
}

/** Whether event data belongs to `run`. */
export function ofRun(run: Run): (data: Record<string, unknown>) => boolean {
  return (d) => d.run_id === run.runId && d.session_id === run.sessionId;
}

/** Wait for `run.finished` of `run`. */
export function waitFinished(backend: Backend, run: Run, timeoutMs?: number): Promise<EventFrame> {
  return backend.waitEvent(
    "run.finished",
    ofRun(run),
    timeoutMs === undefined ? {} : { timeoutMs },
  );
}

/** All events of `run` received so far. */
export function runEvents(backend: Backend, run: Run): EventFrame[] {
  const mine = ofRun(run);
  return backend.frames.filter((f): f is EventFrame => f.type === "event" && mine(f.data));
}

/** Params of a one-part `client.tool.result`. */
export function resultParams(
  run: Run,
  callId: unknown,
  text: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    session_id: run.sessionId,
    run_id: run.runId,
    call_id: callId,
    part: 0,
    last_part: true,
    outcome: "success",
    text,
    ...extra,
  };
}

/** Answer the `approval.requested` of `run` (waiting for it) with `allow`. */
export async function answerApproval(
  backend: Backend,
  run: Run,
  allow: boolean,
): Promise<EventFrame> {
  const ev = await backend.waitEvent("approval.requested", ofRun(run), { from: run.from });
  await backend.call("approval.answer", {
    session_id: run.sessionId,
    run_id: run.runId,
    approval_id: ev.data.approval_id,
    allow,
  });
  return ev;
}

/** Run `body` with a fresh child of the reference backend driven by `scenario`. */
export async function withScenario(
  scenario: unknown,
  body: (backend: Backend) => Promise<void>,
): Promise<void> {
  const ws = await Workspace.create();
  try {
    const path = await ws.writeScenario(scenario);
    await withBackend({ workspace: ws, env: { MAGI_SCENARIO: path } }, body);
  } finally {
    await ws.dispose();
  }
}

/**
 * Wait until the session worker is free: `session.list` answers something other than `busy`
 * (an operation such as `session.create` is answered before its cleanup ends, and the spec lets
 * the worker answer `busy` until then). Throws after 30 s.
 */
export async function workerIdle(b: Backend): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const res = await b.request("session.list", {});
    if (res.error?.code !== "busy") return;
    await b.settle(100);
  }
  throw new Error("the session worker stayed busy");
}
