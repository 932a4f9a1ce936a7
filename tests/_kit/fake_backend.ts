/**
 * The tests' scriptable fake backend: just enough of `magi-code.local-agent` v1 (initialize
 * with `client.tools`, status, shutdown, session.create, session.list, turn.start with a short
 * run, turn.cancel, client.tool.result), breaking the protocol on purpose by its `mode`. One
 * implementation, served two ways:
 *
 * - in this process, over in-memory pipes: `memoryChild(new FakeBackend(options).serve)`
 *   (`memory_child.ts`) gives a `ChildHandle` the client and `HostRun` accept, and
 *   nothing is spawned;
 * - as a child process: `deno run -A tests/_kit/fake_backend.ts MODE` ({@link fakeAgent}), the
 *   options read from `FAKE_*` variables ({@link optionsFromEnv}), for the CLI's end-to-end tests.
 *
 * Modes:
 *
 * - `ok`: behaves.
 * - `unknown_event` / `seq_gap` / `seq_repeat` / `instance_change` / `bad_json` /
 *   `unknown_error` / `bad_result` / `unknown_id` / `unknown_type` / `oversized`:
 *   the first response after `turn.start` (or to `initialize` for
 *   `bad_result`/`unknown_error`) breaks that rule.
 * - `flood`: after admitting `turn.start`, 2,000 `message.delta` events and a diagnostic.
 * - `crash`: exits with code 3 right after admitting `turn.start`.
 * - `slow_init`: never answers `initialize` (but answers `shutdown` and exits on EOF); writes
 *   `initialize` to `initFile` when that request arrives, so a test can act while the host
 *   waits for the answer.
 * - `crash_init`: exits with code 5 on `initialize`.
 * - `stall`: never writes anything, never exits on its own (as a child, ignores SIGTERM).
 * - `stall_run`: admits `turn.start`, then never emits anything (as a child, ignores SIGTERM).
 * - `descriptor_mismatch`: returns a wrong `tool_id`.
 * - `rogue_tool_call`: sends `client.tool.call` even when `client.tools` was not negotiated.
 * - `tool_call`: during the run, calls the first registered tool with `args` and finishes
 *   after its result (named `renameCallsTo` instead when set: a call of a tool the host never
 *   registered).
 * - `extra_fields`: results carry unknown additional fields (top level of the `initialize`,
 *   `status` and `session.create` results, inside `limits`, `status`, the `client.tools`
 *   descriptor and its limits, and an unknown descriptor).
 * - `unknown_enum`: the `status` result has `state: "paused"`.
 * - `event_extra`: `input.persisted` data has an unknown additional field.
 * - `no_discover`: `initialize` requiring `session.discover` is answered
 *   `unsupported_capability` (a preflight failure: initialization stays open); `session.list`
 *   answers one page with the sessions `fake-a` and `fake-b`.
 *
 * Any mode: a repeated request ID is answered `duplicate_id`; `busyMethod` is answered `busy`
 * `busyCount` times in a row after each `run.finished` (and before the first run with
 * `busyFirst`), as a backend still cleaning up the previous run does; each `turn.start` admits
 * a new run (`run1`, `run2`, …) and each `session.create` a new session (`sess1`, …); with
 * `cancelGraceMs`, a call still unanswered that long after `turn.cancel` is given up, as a real
 * backend does after its cancel grace, and the run finishes `cancelled` (without it the run
 * waits for the call's result).
 *
 * @module
 */

import { toolIdOf } from "../../src/protocol/canonical.ts";
import { FrameDecoder } from "../../src/protocol/framing.ts";
import type { JsonObject } from "../../src/protocol/json.ts";
import { CLIENT_TOOLS_LIMITS, LIMITS } from "../../src/protocol/limits.ts";
import { BASE_CAPABILITIES } from "../../src/protocol/schemas/capabilities.ts";
import type { Clock } from "../../src/async/clock.ts";
import { REAL_CLOCK } from "../../src/async/clock.ts";
import { type BackendIo, type MemoryChild, memoryChild } from "./memory_child.ts";

/** Path of this module (run it as a child with {@link fakeAgent}). */
export const FAKE_BACKEND: string = new URL(import.meta.url).pathname;

/** What a fake backend does; see the module doc. */
export interface FakeBackendOptions {
  /** The mode (default `ok`). */
  readonly mode?: string;
  /** `initialize` is written to this file when that request arrives (`slow_init`). */
  readonly initFile?: string;
  /** The advertised `limits.request_ids`. */
  readonly requestIds?: number;
  /** Overrides of the advertised `client.tools` limits. */
  readonly toolLimits?: Record<string, unknown>;
  /** This method is answered `busy` `busyCount` times in a row after each `run.finished`. */
  readonly busyMethod?: string;
  /** How many `busy` answers (default 1; `Infinity`: always). */
  readonly busyCount?: number;
  /** Also before the first run. */
  readonly busyFirst?: boolean;
  /** The arguments of the `tool_call` mode's call (default `{}`). */
  readonly args?: unknown;
  /** The `tool_call` mode calls its tool by this name instead (a tool never registered). */
  readonly renameCallsTo?: string;
  /** A call still unanswered this long after `turn.cancel` is given up. */
  readonly cancelGraceMs?: number;
  /** The clock of the cancel grace (default the real one). */
  readonly clock?: Clock;
}

/** The `FAKE_*` variables of a fake backend child, as options. */
export function optionsFromEnv(
  mode: string | undefined,
  env: (name: string) => string | undefined,
): FakeBackendOptions {
  const number = (name: string) => env(name) === undefined ? undefined : Number(env(name));
  const count = env("FAKE_BUSY_COUNT");
  return dropUndefined({
    mode: env("FAKE_MODE") ?? mode ?? "ok",
    initFile: env("FAKE_INIT_FILE"),
    requestIds: number("FAKE_REQUEST_IDS"),
    toolLimits: env("FAKE_TOOL_LIMITS") === undefined
      ? undefined
      : JSON.parse(env("FAKE_TOOL_LIMITS")!),
    busyMethod: env("FAKE_BUSY_METHOD"),
    busyCount: count === "forever" ? Infinity : count === undefined ? undefined : Number(count),
    busyFirst: env("FAKE_BUSY_FIRST") === "1",
    args: env("FAKE_ARGS") === undefined ? undefined : JSON.parse(env("FAKE_ARGS")!),
    renameCallsTo: env("FAKE_RENAME_CALLS"),
    cancelGraceMs: number("FAKE_CANCEL_GRACE_MS"),
  });
}

/**
 * The fake backend as an `--agent` command line (a child process). `env` takes `FAKE_*`
 * variables only through the CLI's environment (the backend inherits it).
 */
export function fakeAgent(mode: string): string {
  return `${Deno.execPath()} run -A ${FAKE_BACKEND} ${mode}`;
}

/** A fake backend served in this process, as a child handle (nothing is spawned). */
export function fakeChild(options: FakeBackendOptions = {}): MemoryChild {
  return memoryChild(new FakeBackend(options).serve);
}

/** Where the backend writes: synchronously to a process's stdout, or to a stream. */
interface Output {
  write(bytes: Uint8Array): void;
  /** Resolves once everything written so far is out. */
  flush(): Promise<void>;
}

function streamOutput(stream: WritableStream<Uint8Array>): Output {
  const writer = stream.getWriter();
  let last: Promise<void> = Promise.resolve();
  return {
    write(bytes) {
      last = writer.write(bytes).catch(() => {});
    },
    async flush() {
      await last;
    },
  };
}

function stdoutOutput(): Output {
  return {
    write(bytes) {
      try {
        let offset = 0;
        while (offset < bytes.length) offset += Deno.stdout.writeSync(bytes.subarray(offset));
      } catch {
        // The reader closed the pipe (after an oversized frame, as it should).
      }
    },
    flush: () => Promise.resolve(),
  };
}

const CONTEXT = "a".repeat(64);
const NEVER = new Promise<number>(() => {});

/** One fake backend (one connection); see the module doc. */
export class FakeBackend {
  readonly #options: FakeBackendOptions;
  readonly #mode: string;
  readonly #instance = crypto.randomUUID();
  readonly #encoder = new TextEncoder();
  #out!: Output;
  #seq = 0;
  #tools: JsonObject[] = [];
  #sessions = 0;
  #sessionId = "";
  #runId = "";
  #turnDone = false;
  #pendingCall: string | null = null;
  #messages = 0;
  #stalled = false;
  #runs = 0;
  #busyLeft: number;
  readonly #seenIds = new Set<unknown>();

  constructor(options: FakeBackendOptions = {}) {
    this.#options = options;
    this.#mode = options.mode ?? "ok";
    this.#busyLeft = options.busyFirst === true ? this.#busyCount : 0;
  }

  /**
   * Serve one connection: resolves with the exit code (0 at EOF, the crash modes' codes);
   * `stall` and `stall_run` never resolve (kill the child). Bound, so `memoryChild` takes it.
   */
  readonly serve = (io: BackendIo): Promise<number> =>
    this.#serve(io.stdin, streamOutput(io.stdout));

  /** Serve the process's own stdin and stdout (the child entry point). */
  serveStdio(): Promise<number> {
    return this.#serve(Deno.stdin.readable, stdoutOutput());
  }

  get #busyCount(): number {
    return this.#options.busyCount ?? 1;
  }

  async #serve(stdin: ReadableStream<Uint8Array>, out: Output): Promise<number> {
    this.#out = out;
    if (this.#mode === "stall") {
      // Read and discard input forever; never answer, never exit.
      for await (const _ of stdin) { /* stall */ }
      return NEVER;
    }
    const decoder = new FrameDecoder();
    for await (const chunk of stdin) {
      for (const item of decoder.push(chunk)) {
        if (item.kind !== "frame") continue;
        const code = this.#handle(JSON.parse(item.text));
        if (code !== undefined) {
          await out.flush();
          return code;
        }
      }
    }
    await out.flush();
    if (this.#mode === "stall_run") return NEVER;
    return 0;
  }

  #write(frame: Record<string, unknown>): void {
    this.#raw(JSON.stringify(frame) + "\n");
  }

  #raw(text: string): void {
    this.#out.write(this.#encoder.encode(text));
  }

  #base(type: string): Record<string, unknown> {
    this.#seq += 1;
    return {
      protocol: "magi-code.local-agent",
      version: 1,
      type,
      instance_id: this.#instance,
      seq: this.#seq,
    };
  }

  #respond(id: unknown, result: unknown): undefined {
    this.#write({ ...this.#base("response"), id, result });
  }

  #fail(id: unknown, code: string): undefined {
    this.#write({ ...this.#base("response"), id, error: { code } });
  }

  #emit(event: string, data: Record<string, unknown>): undefined {
    this.#write({ ...this.#base("event"), event, data });
  }

  #ids(): { session_id: string; run_id: string } {
    return { session_id: this.#sessionId, run_id: this.#runId };
  }

  #status(state: "idle" | "running"): Record<string, unknown> {
    return {
      state,
      readiness: "ready",
      provider: "fake",
      model: "fake-1",
      context_id: CONTEXT,
      session_id: this.#sessionId === "" ? null : this.#sessionId,
      run_id: state === "running" ? this.#runId : null,
      selection: null,
    };
  }

  #finishRun(outcome: "completed" | "cancelled"): undefined {
    if (this.#turnDone) return;
    this.#turnDone = true;
    this.#messages += 1;
    this.#emit("message.reconcile", {
      ...this.#ids(),
      message_id: `m${this.#messages}`,
      part: 0,
      text: outcome === "completed" ? "Done." : "Stopped.",
      last_part: true,
      partial: outcome !== "completed",
    });
    this.#emit("run.finished", {
      ...this.#ids(),
      outcome,
      persistence: "durable",
      revision: "rev2",
      error_code: null,
    });
    this.#busyLeft = this.#busyCount;
  }

  /** The mode's break of the rules after `turn.start`: true when done, an exit code to exit. */
  #breakNow(id: unknown): boolean | number {
    const admitted = { run_id: this.#runId, accepted: true };
    switch (this.#mode) {
      case "unknown_event":
        this.#emit("bogus.event", this.#ids());
        return true;
      case "seq_gap":
        this.#seq += 1;
        this.#respond(id, admitted);
        return true;
      case "seq_repeat":
        this.#seq -= 1;
        this.#respond(id, admitted);
        return true;
      case "instance_change":
        this.#write({
          ...this.#base("response"),
          instance_id: crypto.randomUUID(),
          id,
          result: admitted,
        });
        return true;
      case "bad_json":
        this.#raw("{not json\n");
        return true;
      case "unknown_id":
        this.#respond("zzz", admitted);
        return true;
      case "unknown_type":
        this.#write({ ...this.#base("notice"), id, result: {} });
        return true;
      case "oversized":
        // The client closes the pipe at byte 65,536, as it should.
        this.#raw("x".repeat(70_000) + "\n");
        return true;
      case "rogue_tool_call":
        this.#respond(id, admitted);
        this.#emit("client.tool.call", {
          ...this.#ids(),
          call_id: "c1",
          name: "x",
          tool_id: "0".repeat(64),
          arguments: {},
          deadline_ms: 1000,
        });
        return true;
      case "crash":
        this.#respond(id, admitted);
        return 3;
      case "flood":
        this.#respond(id, admitted);
        for (let part = 0; part < 2000; part++) {
          this.#emit("message.delta", { ...this.#ids(), message_id: "m1", part, text: "x" });
        }
        this.#emit("diagnostic", { ...this.#ids(), code: "flooded", summary: "" });
        return true;
    }
    return false;
  }

  /** Handle one request; an exit code when the backend exits now. */
  #handle(frame: Record<string, unknown>): number | undefined {
    if (this.#stalled) return;
    const id = frame.id;
    if (this.#seenIds.has(id)) return this.#fail(id, "duplicate_id");
    this.#seenIds.add(id);
    const params = (frame.params ?? {}) as Record<string, unknown>;
    if (
      this.#options.busyMethod !== undefined && frame.method === this.#options.busyMethod &&
      this.#busyLeft > 0
    ) {
      this.#busyLeft -= 1;
      return this.#fail(id, "busy");
    }
    switch (frame.method) {
      case "initialize":
        return this.#initialize(id, params);
      case "status": {
        const result = this.#status(this.#runId !== "" && !this.#turnDone ? "running" : "idle");
        if (this.#mode === "extra_fields") result.future_field = 1;
        if (this.#mode === "unknown_enum") result.state = "paused";
        return this.#respond(id, result);
      }
      case "shutdown":
        this.#respond(id, { state: "stopping" });
        if (this.#runId !== "" && !this.#turnDone) {
          if (this.#pendingCall !== null) {
            this.#emit("client.tool.cancel", {
              ...this.#ids(),
              call_id: this.#pendingCall,
              reason: "shutdown",
            });
          }
          this.#finishRun("cancelled");
        }
        return;
      case "session.list": {
        const entry = (session_id: string) => ({
          session_id,
          title: null,
          updated_at: null,
          eligibility: "available",
          notices: [],
        });
        return this.#respond(id, {
          revision: "rev-list",
          sessions: [entry("fake-a"), entry("fake-b")],
          next_cursor: null,
          complete: true,
          notices: [],
        });
      }
      case "session.create":
        this.#sessions += 1;
        this.#sessionId = `sess${this.#sessions}`;
        return this.#respond(id, {
          session_id: this.#sessionId,
          durable: false,
          revision: "rev1",
          notices: [],
          ...(this.#mode === "extra_fields" ? { future_field: "x" } : {}),
        });
      case "turn.start":
        return this.#turnStart(id);
      case "turn.cancel":
        return this.#turnCancel(id, params);
      case "client.tool.result":
        if (params.call_id !== this.#pendingCall) return this.#fail(id, "stale_call");
        this.#respond(id, { recorded: true, complete: params.last_part === true });
        if (params.last_part === true) {
          this.#pendingCall = null;
          this.#finishRun(params.outcome === "cancelled" ? "cancelled" : "completed");
        }
        return;
      default:
        return this.#fail(id, "unsupported_method");
    }
  }

  #initialize(id: unknown, params: Record<string, unknown>): number | undefined {
    const mode = this.#mode;
    if (mode === "crash_init") return 5;
    if (mode === "slow_init") {
      if (this.#options.initFile !== undefined) {
        Deno.writeTextFileSync(this.#options.initFile, "initialize");
      }
      return; // Never answers; shutdown still works.
    }
    if (mode === "unknown_error") return this.#fail(id, "weird_code");
    if (mode === "bad_result") return this.#respond(id, { capabilities: [] });
    const required = params.required_capabilities as string[];
    if (mode === "no_discover" && required.includes("session.discover")) {
      return this.#fail(id, "unsupported_capability");
    }
    this.#tools = (params.client_tools ?? []) as JsonObject[];
    const negotiated = required.includes("client.tools");
    const registered = this.#tools.map((t) => ({
      name: t.name,
      tool_id: mode === "descriptor_mismatch" ? "0".repeat(64) : toolIdOf(t),
    }));
    const limits: Record<string, unknown> = { ...LIMITS };
    if (this.#options.requestIds !== undefined) limits.request_ids = this.#options.requestIds;
    const result: Record<string, unknown> = {
      capabilities: negotiated ? [...BASE_CAPABILITIES, "client.tools"] : [...BASE_CAPABILITIES],
      limits,
      status: this.#status("idle"),
    };
    if (negotiated) {
      result.descriptors = {
        "client.tools": {
          version: 1,
          tools: registered,
          limits: { ...CLIENT_TOOLS_LIMITS, ...this.#options.toolLimits },
        },
      };
    }
    if (mode === "extra_fields") {
      result.future_field = { nested: [1, 2] };
      limits.future_limit = 7;
      (result.status as Record<string, unknown>).future_state = "x";
      if (negotiated) {
        const descriptors = result.descriptors as Record<string, Record<string, unknown>>;
        const clientTools = descriptors["client.tools"]!;
        clientTools.future = true;
        clientTools.limits = { ...CLIENT_TOOLS_LIMITS, future_limit: 1 };
        descriptors["future.extension"] = { version: 3 };
      }
    }
    return this.#respond(id, result);
  }

  #turnStart(id: unknown): number | undefined {
    this.#runs += 1;
    this.#runId = `run${this.#runs}`;
    this.#turnDone = false;
    const broken = this.#breakNow(id);
    if (typeof broken === "number") return broken;
    if (broken) return;
    this.#respond(id, { run_id: this.#runId, accepted: true });
    if (this.#mode === "stall_run") {
      this.#stalled = true;
      return;
    }
    this.#emit("input.persisted", {
      ...this.#ids(),
      message_id: `u${this.#runs}`,
      durable: true,
      revision: "rev1",
      ...(this.#mode === "event_extra" ? { future_field: 1 } : {}),
    });
    if (this.#mode === "tool_call" && this.#tools.length > 0) {
      const tool = this.#tools[0]!;
      this.#pendingCall = "call1";
      this.#emit("client.tool.call", {
        ...this.#ids(),
        call_id: this.#pendingCall,
        name: this.#options.renameCallsTo ?? tool.name,
        tool_id: toolIdOf(tool),
        arguments: this.#options.args ?? {},
        deadline_ms: 30_000,
      });
      return;
    }
    return this.#finishRun("completed");
  }

  #turnCancel(id: unknown, params: Record<string, unknown>): undefined {
    if (this.#turnDone || params.run_id !== this.#runId) return this.#fail(id, "stale_run");
    this.#respond(id, { cancellation_requested: true });
    const call = this.#pendingCall;
    if (call === null) return this.#finishRun("cancelled");
    this.#emit("client.tool.cancel", {
      ...this.#ids(),
      call_id: call,
      reason: "run_cancelled",
    });
    const grace = this.#options.cancelGraceMs;
    if (grace !== undefined) {
      (this.#options.clock ?? REAL_CLOCK).setTimeout(() => {
        if (this.#pendingCall !== call) return;
        this.#pendingCall = null;
        this.#finishRun("cancelled");
      }, grace);
    }
    // Finishes when the cancelled result arrives (or after the grace).
  }
}

/** The options given (an option read as `undefined` is left out). */
function dropUndefined(object: Record<string, unknown>): FakeBackendOptions {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined));
}

if (import.meta.main) {
  const options = optionsFromEnv(Deno.args[0], (name) => Deno.env.get(name));
  const pidFile = Deno.env.get("FAKE_PID_FILE");
  if (pidFile !== undefined) Deno.writeTextFileSync(pidFile, String(Deno.pid));
  if (options.mode === "stall" || options.mode === "stall_run") {
    Deno.addSignalListener("SIGTERM", () => {});
  }
  Deno.exit(await new FakeBackend(options).serveStdio());
}
