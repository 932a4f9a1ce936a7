/**
 * A minimal `magi-code.local-agent` v1 backend that measures the tool host:
 * it answers `initialize` (with `client.tools`), `session.create`, `status`
 * and `turn.start`, then emits `client.tool.call` events and times each call
 * from the event's emission to the `client.tool.result` request that
 * completes it (`last_part: true`), then emits `run.finished`. On `shutdown`
 * it writes its stats as JSON to `BENCH_STATS_FILE`.
 *
 * It is a measuring fixture, not a conforming backend: to keep its own cost
 * out of the numbers it reads and writes through the lean I/O of
 * {@link ./stdio.ts} (the echo child's), parses requests with plain
 * `JSON.parse`, emits no `activity` events, and it neither enforces nor advertises the real
 * `request_ids` (4,096) and `calls_per_run` (256) bounds: it advertises
 * values large enough for the requested calls, so that one host process can
 * serve 100,000 calls.
 *
 * Environment: `BENCH_STATS_FILE` (required), `BENCH_TOOL` (tool name,
 * default `trivial`), `BENCH_CALLS` (timed calls, default 0),
 * `BENCH_WARMUP` (untimed calls first, default 0), `BENCH_CONCURRENCY`
 * (default 1), `BENCH_RSS_EVERY` (sample the host's RSS every this many
 * timed calls, default 0 = start and end only). The host is this process's
 * parent (`Deno.ppid`).
 *
 * @module
 */

import { toolIdOf } from "../../src/protocol/canonical.ts";
import { eventFrame, responseFrame } from "../../src/protocol/envelope.ts";
import { encodeFrame } from "../../src/protocol/framing.ts";
import type { JsonObject, JsonValue } from "../../src/protocol/json.ts";
import { CLIENT_TOOLS_LIMITS, LIMITS } from "../../src/protocol/limits.ts";
import { BASE_CAPABILITIES } from "../../src/protocol/schemas/capabilities.ts";
import { epochMs } from "./clock.ts";
import { readCpuSplitMs, readCpuTimeMs, readMemoryStatus } from "./proc_status.ts";
import { summarize } from "./stats.ts";
import { readLinesInto, StdoutBox } from "./stdio.ts";

const SESSION_ID = "bench-session";
const CONTEXT_ID = "0".repeat(64);

/** What the backend writes to `BENCH_STATS_FILE`. */
export interface FakeBackendStats {
  /** Tool that was called. */
  tool: string;
  /** Timed calls completed. */
  calls: number;
  /** Calls in flight at once. */
  concurrency: number;
  /** Untimed calls before the timed ones. */
  warmup: number;
  /** Wall time of the timed calls, ms (0 without calls). */
  elapsed_ms: number;
  /** Latency summary of the timed calls, or null without calls. */
  latency_ms: ReturnType<typeof summarize> | null;
  /** Result bytes of each completed call (the last call's). */
  result_bytes: number;
  /** Calls answered with an outcome other than `success`. */
  failed_calls: number;
  /** The host's pid (this process's parent). */
  host_pid: number;
  /** Host RSS, KiB: at the first timed call, every `BENCH_RSS_EVERY` calls, and at the end. */
  rss_kb: { calls: number; rss: number }[];
  /** Host peak RSS (`VmHWM`) at shutdown, KiB. */
  hwm_kb: number;
  /**
   * Host CPU time (user + system, `/proc/<pid>/stat`, 10 ms resolution) over the timed
   * calls, ms (0 without calls): less sensitive to other load than calls/s.
   */
  host_cpu_ms: number;
  /** This backend's own CPU time over the timed calls, ms (as `host_cpu_ms`). */
  backend_cpu_ms: number;
  /**
   * The system (kernel) part of `host_cpu_ms` and of `backend_cpu_ms`, ms (`stime`; the rest is
   * `utime`): how much of a call's CPU is system calls (pipe I/O, wake-ups) rather than code.
   * Absent from older fixtures.
   */
  host_cpu_system_ms?: number;
  /** See `host_cpu_system_ms`. */
  backend_cpu_system_ms?: number;
  /** The host's CPU time from its start until its `initialize` request was read, ms (0 if never). */
  host_cpu_at_initialize_ms: number;
  /**
   * The host's CPU time from its start until its `shutdown` request was read, ms (0 if never):
   * with no calls, its whole startup (to `host.ready` and the turn) in CPU time.
   */
  host_cpu_at_shutdown_ms: number;
  /** Epoch ms: this process started (`performance.timeOrigin`). */
  started_epoch_ms: number;
  /** Epoch ms: the `initialize` request was read (0 if never). */
  initialize_epoch_ms: number;
  /** Epoch ms: the `initialize` response was queued (0 if never). */
  initialized_epoch_ms: number;
}

function env(name: string, fallback: number): number {
  const raw = Deno.env.get(name);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer: ${raw}`);
  }
  return value;
}

interface Pending {
  /** Result text received so far (UTF-16 units; bytes for the ASCII benchmark payloads). */
  bytes: number;
  resolve: () => void;
}

/** Run the fake backend on stdin/stdout until EOF. */
export async function serveFakeBackend(): Promise<void> {
  const statsFile = Deno.env.get("BENCH_STATS_FILE");
  if (statsFile === undefined) throw new Error("BENCH_STATS_FILE is not set");
  const tool = Deno.env.get("BENCH_TOOL") ?? "trivial";
  const calls = env("BENCH_CALLS", 0);
  const warmup = env("BENCH_WARMUP", 0);
  const concurrency = Math.max(1, env("BENCH_CONCURRENCY", 1));
  const rssEvery = env("BENCH_RSS_EVERY", 0);
  const hostPid = Deno.ppid;
  const instanceId = crypto.randomUUID();
  const runId = crypto.randomUUID();
  const out = new StdoutBox(Deno.stdout);
  let seq = 0;
  let toolId = "";
  let callSeq = 0;
  const pending = new Map<string, Pending>();
  const stats: FakeBackendStats = {
    tool,
    calls: 0,
    concurrency,
    warmup,
    elapsed_ms: 0,
    latency_ms: null,
    result_bytes: 0,
    failed_calls: 0,
    host_pid: hostPid,
    rss_kb: [],
    hwm_kb: 0,
    host_cpu_ms: 0,
    backend_cpu_ms: 0,
    host_cpu_at_initialize_ms: 0,
    host_cpu_at_shutdown_ms: 0,
    started_epoch_ms: performance.timeOrigin,
    initialize_epoch_ms: 0,
    initialized_epoch_ms: 0,
  };

  const send = (frame: JsonObject) => {
    out.push(encodeFrame(frame));
  };
  const respond = (id: string, result: JsonValue) =>
    send(responseFrame(instanceId, ++seq, id, { result }));
  const emit = (event: string, data: JsonObject) =>
    send(eventFrame(instanceId, ++seq, event, data));
  const status = (): JsonObject => ({
    state: "idle",
    readiness: "ready",
    provider: "bench",
    model: "fake",
    context_id: CONTEXT_ID,
    session_id: null,
    run_id: null,
  });

  function call(): Promise<void> {
    const callId = `c${++callSeq}`;
    return new Promise((resolve) => {
      pending.set(callId, { bytes: 0, resolve });
      emit("client.tool.call", {
        session_id: SESSION_ID,
        run_id: runId,
        call_id: callId,
        name: tool,
        tool_id: toolId,
        arguments: {},
        deadline_ms: CLIENT_TOOLS_LIMITS.call_timeout_ms,
      });
    });
  }

  async function runCalls(count: number, latencies: number[] | null): Promise<void> {
    let started = 0;
    const sampleRss = (done: number) =>
      stats.rss_kb.push({ calls: done, rss: readMemoryStatus(hostPid).rssKb });
    let done = 0;
    async function lane(): Promise<void> {
      while (started < count) {
        started++;
        const t0 = performance.now();
        await call();
        latencies?.push(performance.now() - t0);
        done++;
        if (latencies !== null && rssEvery > 0 && done % rssEvery === 0 && done < count) {
          sampleRss(done);
        }
      }
    }
    if (latencies !== null) sampleRss(0);
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
    if (latencies !== null) sampleRss(done);
  }

  async function runTurn(): Promise<void> {
    if (warmup > 0) await runCalls(warmup, null);
    if (calls > 0) {
      const latencies: number[] = [];
      const cpu0 = readCpuSplitMs(hostPid);
      const ownCpu0 = readCpuSplitMs(Deno.pid);
      const t0 = performance.now();
      await runCalls(calls, latencies);
      stats.elapsed_ms = performance.now() - t0;
      const cpu1 = readCpuSplitMs(hostPid);
      const ownCpu1 = readCpuSplitMs(Deno.pid);
      stats.host_cpu_ms = cpu1.user + cpu1.system - cpu0.user - cpu0.system;
      stats.backend_cpu_ms = ownCpu1.user + ownCpu1.system - ownCpu0.user - ownCpu0.system;
      stats.host_cpu_system_ms = cpu1.system - cpu0.system;
      stats.backend_cpu_system_ms = ownCpu1.system - ownCpu0.system;
      stats.calls = latencies.length;
      stats.latency_ms = summarize(latencies);
    }
    emit("run.finished", {
      session_id: SESSION_ID,
      run_id: runId,
      outcome: "completed",
      persistence: "not_started",
      revision: null,
      error_code: null,
    });
  }

  function onResult(id: string, params: JsonObject): void {
    const entry = pending.get(String(params.call_id));
    if (entry === undefined) {
      send(responseFrame(instanceId, ++seq, id, { error: { code: "stale_call" } }));
      return;
    }
    entry.bytes += typeof params.text === "string" ? params.text.length : 0;
    if (params.outcome !== "success") stats.failed_calls++;
    const last = params.last_part === true;
    respond(id, { recorded: true, complete: last });
    if (last) {
      pending.delete(String(params.call_id));
      stats.result_bytes = entry.bytes;
      entry.resolve();
    }
  }

  const decoder = new TextDecoder();
  await readLinesInto(Deno.stdin, (line) => {
    if (line.length === 0) return;
    const request = JSON.parse(decoder.decode(line)) as {
      id: string;
      method: string;
      params: JsonObject;
    };
    const { id, method, params } = request;
    switch (method) {
      case "client.tool.result":
        onResult(id, params);
        break;
      case "initialize": {
        stats.initialize_epoch_ms = epochMs();
        stats.host_cpu_at_initialize_ms = readCpuTimeMs(hostPid);
        const definitions = (params.client_tools ?? []) as JsonObject[];
        const tools = definitions.map((d) => ({ name: String(d.name), tool_id: toolIdOf(d) }));
        toolId = tools.find((t) => t.name === tool)?.tool_id ?? "";
        respond(id, {
          capabilities: [...BASE_CAPABILITIES, "client.tools"],
          // The host budgets its requests by request_ids (one per result part): advertise
          // enough for every call of the run at the most parts a result may have.
          limits: {
            ...LIMITS,
            request_ids: Math.max(
              LIMITS.request_ids,
              (calls + warmup) * CLIENT_TOOLS_LIMITS.result_parts + 64,
            ),
          },
          status: status(),
          descriptors: {
            "client.tools": {
              version: 1,
              tools,
              limits: {
                ...CLIENT_TOOLS_LIMITS,
                calls_per_run: Math.max(CLIENT_TOOLS_LIMITS.calls_per_run, calls + warmup),
              },
            },
          },
        });
        stats.initialized_epoch_ms = epochMs();
        break;
      }
      case "status":
        respond(id, status());
        break;
      case "session.create":
        respond(id, { session_id: SESSION_ID, durable: false, revision: "rev-0", notices: [] });
        break;
      case "turn.start":
        respond(id, { run_id: runId, accepted: true });
        runTurn().catch((error) => {
          console.error(`fake_backend: ${error instanceof Error ? error.message : error}`);
          Deno.exit(1);
        });
        break;
      case "turn.cancel":
        respond(id, { cancellation_requested: true });
        break;
      case "shutdown":
        stats.host_cpu_at_shutdown_ms = readCpuTimeMs(hostPid);
        stats.hwm_kb = readMemoryStatus(hostPid).hwmKb;
        Deno.writeTextFileSync(statsFile, JSON.stringify(stats));
        respond(id, { state: "stopping" });
        break;
      default:
        send(responseFrame(instanceId, ++seq, id, { error: { code: "unsupported_method" } }));
    }
  });
  await out.flushed();
}

if (import.meta.main) await serveFakeBackend();
