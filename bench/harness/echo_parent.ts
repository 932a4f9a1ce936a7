/**
 * Physical-limit driver: spawns {@link ./echo_child.ts} through
 * `node:child_process` (as the host spawns its backend), writes one line per
 * call (the size of a `client.tool.call` event frame) with the host's
 * coalescing, waits for its echo, and prints one JSON line of results
 * (rate, latency, CPU per round trip of both processes) on stdout.
 *
 * With `--result-bytes=N` a call is instead the I/O of an N-byte tool result as the protocol
 * makes the host send it ({@link resultShape}): its 16 KiB parts, each answered by the child,
 * within the host's request window. That is the floor of the host's result path: what any
 * client of the protocol pays in reads, writes and wake-ups, with no framing, parsing or tool.
 *
 * Run: `deno run -A bench/harness/echo_parent.ts --calls 20000 --concurrency 4
 * [--result-bytes=61440]`.
 *
 * @module
 */

import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import {
  MAX_IN_FLIGHT_REQUESTS,
  PRIORITY_IN_FLIGHT_SLOTS,
} from "../../src/client/request_bounds.ts";
import { requestFrame, responseFrame } from "../../src/protocol/envelope.ts";
import { encodeFrame } from "../../src/protocol/framing.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";
import { LineSplitter } from "./lines.ts";
import { runLoad } from "./load.ts";
import { CpuMeter } from "./proc_status.ts";
import { summarize } from "./stats.ts";

/** A line about the size of a `client.tool.call` event frame. */
export function sampleLine(index: number): string {
  return JSON.stringify({
    protocol: "magi-code.local-agent",
    version: 1,
    type: "event",
    instance_id: "0f8fad5b-d9cb-469f-a165-70867728950e",
    seq: index + 10,
    event: "client.tool.call",
    data: {
      session_id: "bench-session",
      run_id: "5b0e2c7a-9a71-4f69-9d9e-3a1d2f6f4c11",
      call_id: `c${index}`,
      name: "trivial",
      tool_id: "0".repeat(64),
      arguments: {},
      deadline_ms: 120000,
    },
  }) + "\n";
}

/**
 * A large result's I/O and nothing else: each call writes `parts` lines of `partBytes` bytes (a
 * result part's frame) and waits for the child's `answerBytes`-byte answer to each, with at most
 * `window` parts unanswered over all calls (the host's request window for ordinary requests).
 * The parts freed by one read leave in one write, as the host's do.
 */
export interface ResultShape {
  /** Parts a call (a 60 KiB result: 4; 1 MiB: 64). */
  parts: number;
  /** Bytes of one part's line, LF included. */
  partBytes: number;
  /** Bytes of one answer's line, LF included. */
  answerBytes: number;
  /** Parts written and not yet answered, at most. */
  window: number;
}

/** Options of {@link measureEcho}. */
export interface EchoOptions {
  /** Calls in flight at once. */
  concurrency: number;
  /** Untimed calls first. */
  warmup: number;
  /** Model a large result's I/O instead of one echoed line a call. */
  result?: ResultShape;
}

/** Echo round trips: `calls` lines at `concurrency`, after `warmup` lines (or results: `result`). */
export async function measureEcho(
  calls: number,
  options: EchoOptions,
): Promise<Record<string, unknown>> {
  const shape = options.result;
  if (shape !== undefined) checkShape(shape);
  // Spawned through node:child_process, as the host spawns its backend (src/runtime): its
  // pipes cost the parent less per round trip than Deno.Command's streams (bench/notes.md).
  const child = spawn(Deno.execPath(), [
    "run",
    new URL("./echo_child.ts", import.meta.url).pathname,
    ...(shape === undefined ? [] : [`--answer-bytes=${shape.answerBytes}`]),
  ], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  // The Outbox's (and the host's frame writer's) coalescing: a line goes out at once when no
  // write is in flight; lines queued during a write go out together in the next one.
  let queued: Uint8Array[] = [];
  let writing = false;
  const written = () => {
    if (queued.length === 0) {
      writing = false;
      return;
    }
    const batch = queued.length === 1 ? queued[0]! : concat(queued);
    queued = [];
    child.stdin!.write(batch, written);
  };
  const push = (bytes: Uint8Array) => {
    if (writing) {
      queued.push(bytes);
      return;
    }
    writing = true;
    child.stdin!.write(bytes, written);
  };
  const peer = shape === undefined ? echoPeer(push) : resultPeer(push, shape);
  const splitter = new LineSplitter();
  child.stdout!.on("data", (chunk: Uint8Array) => peer.onLines(splitter.push(chunk).length));
  const cpu = new CpuMeter({ parent: () => Deno.pid, child: () => child.pid });
  try {
    const result = await runLoad(peer.call, calls, {
      concurrency: options.concurrency,
      warmup: options.warmup,
      onTimed: cpu.onTimed,
    });
    return {
      calls,
      concurrency: options.concurrency,
      line_bytes: peer.lineBytes,
      ...(shape === undefined
        ? {}
        : { parts: shape.parts, answer_bytes: shape.answerBytes, window: shape.window }),
      elapsed_ms: result.elapsedMs,
      latency_ms: summarize(result.latencies),
      cpu_us_per_call: cpu.perCall(calls),
      cpu_system_us_per_call: cpu.systemPerCall(calls),
    };
  } finally {
    child.stdin!.end();
    await exited;
  }
}

/** One side of the echo: how a call starts and what the child's lines complete. */
interface Peer {
  /** Start one call; resolves when it is complete. */
  call: () => Promise<void>;
  /** The child wrote `count` more complete lines. */
  onLines: (count: number) => void;
  /** Bytes of each line the parent writes. */
  lineBytes: number;
}

/** Ends the waits in order, one a line read (compacted as it goes). */
class Waiters {
  #waiting: (() => void)[] = [];
  #head = 0;

  push(done: () => void): void {
    this.#waiting.push(done);
  }

  next(): void {
    this.#waiting[this.#head++]!();
    if (this.#head > 4096) {
      this.#waiting.splice(0, this.#head);
      this.#head = 0;
    }
  }
}

/** One line about the size of a `client.tool.call` event a call, echoed back. */
function echoPeer(push: (bytes: Uint8Array) => void): Peer {
  const waiters = new Waiters();
  const payload = new TextEncoder().encode(sampleLine(0));
  return {
    lineBytes: payload.length,
    call: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        push(payload);
      }),
    onLines(count) {
      for (let i = 0; i < count; i++) waiters.next();
    },
  };
}

/** `shape.parts` lines a call, each answered, at most `shape.window` unanswered. */
function resultPeer(push: (bytes: Uint8Array) => void, shape: ResultShape): Peer {
  const waiters = new Waiters();
  // Every part line is the same: the parts freed by one read go out as one view of these.
  const lines = new Uint8Array(shape.partBytes * shape.window).fill(0x61);
  for (let end = shape.partBytes; end <= lines.length; end += shape.partBytes) {
    lines[end - 1] = 0x0a;
  }
  const held: (() => void)[] = [];
  let inFlight = 0;
  const noop = () => {};
  const send = (count: number) => {
    if (count > 0) push(lines.subarray(0, count * shape.partBytes));
  };
  // A part goes in flight when the window has room (1: one more to send), else it is held.
  const offer = (onAnswer: () => void): number => {
    if (inFlight < shape.window) {
      inFlight++;
      waiters.push(onAnswer);
      return 1;
    }
    held.push(onAnswer);
    return 0;
  };
  return {
    lineBytes: shape.partBytes,
    call: () =>
      new Promise<void>((resolve) => {
        let ready = 0;
        for (let part = 0; part < shape.parts; part++) {
          ready += offer(part === shape.parts - 1 ? resolve : noop);
        }
        send(ready);
      }),
    onLines(count) {
      for (let i = 0; i < count; i++) {
        inFlight--;
        waiters.next();
      }
      let ready = 0;
      while (held.length > 0 && inFlight < shape.window) ready += offer(held.shift()!);
      send(ready);
    },
  };
}

const BENCH_UUID = "5b0e2c7a-9a71-4f69-9d9e-3a1d2f6f4c11";

/**
 * The I/O of a `resultBytes` result as the host sends it: one `client.tool.result` part per
 * `result_part_bytes` of text (each part the average size, so the bytes add up), its frame and
 * the backend's `{recorded, complete}` answer as the protocol's encoders write them (IDs of the
 * bench's sizes), and the host's window for ordinary requests.
 */
export function resultShape(resultBytes: number): ResultShape {
  const parts = Math.max(1, Math.ceil(resultBytes / CLIENT_TOOLS_LIMITS.result_part_bytes));
  const part = encodeFrame(
    requestFrame("r100000", "client.tool.result", {
      session_id: "bench-session",
      run_id: BENCH_UUID,
      call_id: "call-100000",
      part: 0,
      last_part: false,
      outcome: "success",
      text: "a".repeat(Math.ceil(resultBytes / parts)),
    }),
  );
  const answer = encodeFrame(
    responseFrame(BENCH_UUID, 100000, "r100000", { result: { recorded: true, complete: false } }),
  );
  return {
    parts,
    partBytes: part.length,
    answerBytes: answer.length,
    window: MAX_IN_FLIGHT_REQUESTS - PRIORITY_IN_FLIGHT_SLOTS,
  };
}

function checkShape(shape: ResultShape): void {
  for (const [name, value] of Object.entries(shape)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`Result shape ${name} must be a positive integer: ${value}`);
    }
  }
  if (shape.answerBytes < 2 || shape.partBytes < 2) {
    throw new RangeError("Result shape lines need at least one byte before their LF");
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const part of parts) size += part.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      calls: { type: "string", default: "20000" },
      concurrency: { type: "string", default: "1" },
      warmup: { type: "string", default: "1000" },
      // A result's I/O instead of echoed lines: `--result-bytes=61440` (60 KiB, 4 parts).
      "result-bytes": { type: "string" },
    },
  });
  const resultBytes = values["result-bytes"];
  const result = await measureEcho(Number(values.calls), {
    concurrency: Number(values.concurrency),
    warmup: Number(values.warmup),
    ...(resultBytes === undefined ? {} : { result: resultShape(Number(resultBytes)) }),
  });
  console.log(JSON.stringify(result));
}
