/**
 * A scripted backend served in this process (test helper, for {@link memoryChild}): just
 * enough of `magi-code.local-agent` v1 for `BackendRun` (initialize with `client.tools`, status,
 * session.create, turn.start with a run that completes at once, turn.cancel, shutdown), with
 * the `busy` answers of a backend still cleaning up the previous run. The in-process
 * counterpart of `tests/client/fixtures/fake_backend.ts` in its `ok` mode with
 * `FAKE_BUSY_METHOD`/`FAKE_BUSY_COUNT`/`FAKE_BUSY_FIRST`.
 *
 * @module
 */

import { toolIdOf } from "../../src/protocol/canonical.ts";
import { FrameDecoder } from "../../src/protocol/framing.ts";
import type { JsonObject } from "../../src/protocol/json.ts";
import { CLIENT_TOOLS_LIMITS, LIMITS } from "../../src/protocol/limits.ts";
import { BASE_CAPABILITIES } from "../../src/protocol/schemas/capabilities.ts";
import type { BackendIo } from "./_memory_child.ts";

/** Options of {@link scriptedBackend}. */
export interface ScriptedBackendOptions {
  /** This method is answered `busy` `busyCount` times in a row after each `run.finished`. */
  readonly busyMethod?: "session.create" | "turn.start";
  /** How many `busy` answers (default 1; `Infinity`: always). */
  readonly busyCount?: number;
  /** Also before the first run. */
  readonly busyFirst?: boolean;
}

/** The serve function of a scripted backend (for `memoryChild`); resolves with exit 0 at EOF. */
export function scriptedBackend(
  options: ScriptedBackendOptions = {},
): (io: BackendIo) => Promise<number> {
  return async ({ stdin, stdout }) => {
    const writer = stdout.getWriter();
    const encoder = new TextEncoder();
    const instance = crypto.randomUUID();
    const busyCount = options.busyCount ?? 1;
    let seq = 0;
    let busyLeft = options.busyFirst === true ? busyCount : 0;
    let sessions = 0;
    let runs = 0;
    let sessionId = "";
    let runId = "";
    let running = false;
    const write = (frame: Record<string, unknown>) => {
      seq += 1;
      const envelope = {
        protocol: "magi-code.local-agent",
        version: 1,
        instance_id: instance,
        seq,
      };
      void writer.write(encoder.encode(JSON.stringify({ ...envelope, ...frame }) + "\n"));
    };
    const respond = (id: unknown, result: unknown) => write({ type: "response", id, result });
    const fail = (id: unknown, code: string) => write({ type: "response", id, error: { code } });
    const emit = (event: string, data: Record<string, unknown>) =>
      write({ type: "event", event, data });
    const status = () => ({
      state: running ? "running" : "idle",
      readiness: "ready",
      provider: "scripted",
      model: "scripted-1",
      context_id: "a".repeat(64),
      session_id: sessionId === "" ? null : sessionId,
      run_id: running ? runId : null,
      selection: null,
    });
    const finishRun = (outcome: "completed" | "cancelled") => {
      if (!running) return;
      running = false;
      const ids = { session_id: sessionId, run_id: runId };
      emit("message.reconcile", {
        ...ids,
        message_id: `m${runs}`,
        part: 0,
        text: outcome === "completed" ? "Done." : "Stopped.",
        last_part: true,
        partial: outcome !== "completed",
      });
      emit("run.finished", {
        ...ids,
        outcome,
        persistence: "durable",
        revision: `rev${runs}`,
        error_code: null,
      });
      busyLeft = busyCount;
    };
    const handle = (frame: Record<string, unknown>) => {
      const { id, method } = frame;
      const params = (frame.params ?? {}) as Record<string, unknown>;
      if (method === options.busyMethod && busyLeft > 0) {
        busyLeft -= 1;
        return fail(id, "busy");
      }
      switch (method) {
        case "initialize": {
          const tools = (params.client_tools ?? []) as JsonObject[];
          return respond(id, {
            capabilities: [...BASE_CAPABILITIES, "client.tools"],
            limits: { ...LIMITS },
            status: status(),
            descriptors: {
              "client.tools": {
                version: 1,
                tools: tools.map((t) => ({ name: t.name, tool_id: toolIdOf(t) })),
                limits: { ...CLIENT_TOOLS_LIMITS },
              },
            },
          });
        }
        case "status":
          return respond(id, status());
        case "shutdown":
          respond(id, { state: "stopping" });
          return finishRun("cancelled");
        case "session.create":
          sessions += 1;
          sessionId = `sess${sessions}`;
          return respond(id, {
            session_id: sessionId,
            durable: false,
            revision: "rev0",
            notices: [],
          });
        case "turn.start":
          runs += 1;
          runId = `run${runs}`;
          running = true;
          respond(id, { run_id: runId, accepted: true });
          emit("input.persisted", {
            session_id: sessionId,
            run_id: runId,
            message_id: `u${runs}`,
            durable: true,
            revision: `rev${runs}`,
          });
          return finishRun("completed");
        case "turn.cancel":
          if (!running || params.run_id !== runId) return fail(id, "stale_run");
          respond(id, { cancellation_requested: true });
          return finishRun("cancelled");
        default:
          return fail(id, "unsupported_method");
      }
    };
    const decoder = new FrameDecoder();
    for await (const chunk of stdin) {
      for (const item of decoder.push(chunk)) {
        if (item.kind === "frame") handle(JSON.parse(item.text));
      }
    }
    await writer.close().catch(() => {});
    return 0;
  };
}
