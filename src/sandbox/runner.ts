/**
 * Tool process entry point (the child side of process isolation).
 *
 * Started by the host as `deno run --no-prompt <--allow-* flags>
 * --preload=<tool module> runner.ts`, with exactly the tool's declared
 * permissions. Preloading puts the tool module in the startup module graph,
 * so loading it needs no read permission; the dynamic `import()` below finds
 * it already loaded.
 *
 * The preloaded tool module's top-level code runs before this file: the
 * runner then reads the init line (with the frame token) from stdin and keeps
 * references to what it needs to write frames. It then replaces `console.*`
 * and `Deno.stdout`/`Deno.stderr` writes (which `process.stdout` also uses)
 * so tool output is sent as framed `log` messages, bounded per call. Output
 * that bypasses this (a program the tool starts, `node:fs` writes to fd 1)
 * cannot forge a frame: it has no token. The tool module itself ran first in
 * this process and can learn the token; the host bounds and checks every
 * frame on its side, so that gains it nothing (channel.ts).
 *
 * @module
 */

import { isRichResult } from "../tool/content.ts";
import { isTool, type Tool, type ToolContext } from "../tool/define.ts";
import { resultToText } from "../tool/result.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { invalidArgumentsText, invalidOutputText } from "../tool/answers.ts";
import { sandboxFingerprint } from "./description.ts";
import { ProgressLimiter, progressUpdate } from "../tool/progress.ts";
import {
  type CallMessage,
  type ChildMessage,
  deniedPermission,
  FRAME_MARK,
  type HostMessage,
  LOG_BYTES,
} from "./channel.ts";

const encoder = new TextEncoder();
const encode = encoder.encode.bind(encoder);
const stringify = JSON.stringify;
const parse = JSON.parse;
const stdout = Deno.stdout;
const rawWrite = stdout.writeSync.bind(stdout);
const exit: (code?: number) => never = Deno.exit.bind(Deno);

let prefix = "";
let tool: Tool | undefined;
let current: { id: number; controller: AbortController } | undefined;
let logBytes = 0;
let droppedLogBytes = 0;

function send(message: ChildMessage): void {
  const bytes = encode(`\n${prefix}${stringify(message)}\n`);
  let offset = 0;
  while (offset < bytes.length) offset += rawWrite(bytes.subarray(offset));
}

function captureLog(text: string): void {
  if (text === "") return;
  const bytes = utf8ByteLength(text);
  if (logBytes + bytes > LOG_BYTES) {
    droppedLogBytes += bytes;
    return;
  }
  logBytes += bytes;
  send({ t: "log", text });
}

function format(args: readonly unknown[]): string {
  return args.map((arg) => typeof arg === "string" ? arg : Deno.inspect(arg, { colors: false }))
    .join(" ");
}

function captureOutput(): void {
  const target = console as unknown as Record<string, unknown>;
  const print = (...args: unknown[]) => captureLog(`${format(args)}\n`);
  for (
    const name of [
      "log",
      "info",
      "debug",
      "warn",
      "error",
      "trace",
      "dir",
      "dirxml",
      "table",
      "group",
      "groupCollapsed",
    ]
  ) target[name] = print;
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  target["groupEnd"] = () => {};
  target["assert"] = (condition: unknown, ...args: unknown[]) => {
    if (!condition) print("Assertion failed", ...args);
  };
  target["count"] = (label = "default") => {
    const next = (counts.get(label) ?? 0) + 1;
    counts.set(label, next);
    print(`${label}: ${next}`);
  };
  target["countReset"] = (label = "default") => counts.delete(label);
  target["time"] = (label = "default") => timers.set(label, performance.now());
  const elapsed = (label = "default", end = false) => {
    const start = timers.get(label);
    if (end) timers.delete(label);
    if (start !== undefined) print(`${label}: ${(performance.now() - start).toFixed(3)}ms`);
  };
  target["timeLog"] = (label?: string) => elapsed(label);
  target["timeEnd"] = (label?: string) => elapsed(label, true);
  for (const stream of [Deno.stdout, Deno.stderr]) {
    const decoder = new TextDecoder();
    const writable = stream as unknown as Record<string, unknown>;
    writable["writeSync"] = (bytes: Uint8Array) => {
      captureLog(decoder.decode(bytes, { stream: true }));
      return bytes.length;
    };
    writable["write"] = (bytes: Uint8Array) => {
      captureLog(decoder.decode(bytes, { stream: true }));
      return Promise.resolve(bytes.length);
    };
  }
}

async function runCall(message: CallMessage, loaded: Tool): Promise<void> {
  const controller = new AbortController();
  current = { id: message.id, controller };
  logBytes = 0;
  droppedLogBytes = 0;
  // Bounded here too, so a tool calling it in a tight loop cannot flood the channel.
  const progress = new ProgressLimiter((update) => {
    if (current?.id === message.id) send({ t: "progress", id: message.id, ...update });
  });
  const ctx: ToolContext = Object.freeze({
    signal: controller.signal,
    callId: message.callId,
    sessionId: message.sessionId,
    runId: message.runId,
    deadline: message.deadline,
    cwd: message.cwd,
    attempt: message.attempt ?? 1,
    ...(message.traceparent === undefined ? {} : { traceparent: message.traceparent }),
    progress: (done: number, total?: number, text?: string) => {
      progress.push(progressUpdate(done, total, text));
    },
  });
  let reply: ChildMessage;
  try {
    const parsed = loaded.input.safeParse(message.args);
    if (!parsed.success) {
      current = undefined;
      progress.discard();
      return send({
        t: "result",
        id: message.id,
        ok: false,
        message: invalidArgumentsText(parsed.error.issues),
        invalid: true,
        droppedLogBytes: 0,
      });
    }
    let value = await loaded.run(parsed.data, ctx);
    if (loaded.output !== undefined) {
      const checked = loaded.output.safeParse(value);
      if (!checked.success) {
        current = undefined;
        return send({
          t: "result",
          id: message.id,
          ok: false,
          message: invalidOutputText(checked.error.issues),
          invalidOutput: true,
          droppedLogBytes,
        });
      }
      value = checked.data;
    }
    if (isRichResult(value)) {
      // Parts go as they are; the host checks them and their bounds.
      reply = {
        t: "result",
        id: message.id,
        ok: true,
        content: [...value.content],
        droppedLogBytes,
      };
    } else {
      const text = resultToText(value);
      const bytes = utf8ByteLength(text);
      reply = bytes > message.resultBytes
        ? { t: "result", id: message.id, ok: true, tooLargeBytes: bytes, droppedLogBytes }
        : { t: "result", id: message.id, ok: true, text, droppedLogBytes };
    }
  } catch (error) {
    const permission = deniedPermission(error);
    reply = {
      t: "result",
      id: message.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      ...(error instanceof Error && error.stack !== undefined ? { stack: error.stack } : {}),
      ...(permission === undefined ? {} : { permission }),
      aborted: controller.signal.aborted,
      droppedLogBytes,
    };
  }
  // The newest held update goes before the result.
  progress.close();
  current = undefined;
  send(reply);
}

function onMessage(message: HostMessage): void {
  if (message.t === "call" && tool !== undefined) void runCall(message, tool);
  else if (message.t === "cancel" && current?.id === message.id) {
    current.controller.abort(new DOMException("Tool call cancelled", "AbortError"));
  }
}

async function* lines(): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const stdin = Deno.stdin;
  const read = stdin.read.bind(stdin);
  const chunk = new Uint8Array(65_536);
  let buffered = "";
  for (;;) {
    // Plain reads: less overhead per message than the stdin ReadableStream.
    const count = await read(chunk);
    if (count === null) return;
    buffered += decoder.decode(chunk.subarray(0, count), { stream: true });
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      yield buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  }
}

function reportUncaught(error: unknown): void {
  const permission = deniedPermission(error);
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  send({ t: "crash", message, ...(permission === undefined ? {} : { permission }) });
}

/**
 * In a PID namespace (`containment.ts`) this process is PID 1 there; the host knows it by
 * the PID of its wrapper, passed as `--host-pid=N`: that is the tool's `Deno.pid` (and
 * `process.pid`), as the host, `ps` and signals see it.
 */
function adoptHostPid(): void {
  const arg = Deno.args.find((a) => a.startsWith("--host-pid="));
  const pid = Number(arg?.slice("--host-pid=".length));
  if (!(Number.isInteger(pid) && pid > 0)) return;
  Object.defineProperty(Deno, "pid", { value: pid, configurable: true, enumerable: true });
  // The tool sees the runner's arguments as before: none of its own.
  const args = Object.freeze(Deno.args.filter((a) => !a.startsWith("--host-pid=")));
  Object.defineProperty(Deno, "args", { value: args, configurable: true, enumerable: true });
}

async function main(): Promise<void> {
  adoptHostPid();
  const input = lines();
  const first = await input.next();
  if (first.done) exit(0);
  const init = parse(first.value) as HostMessage;
  if (init.t !== "init") exit(2);
  prefix = `${FRAME_MARK}${init.token} `;
  globalThis.addEventListener("error", (event) => reportUncaught(event.error));
  globalThis.addEventListener("unhandledrejection", (event) => reportUncaught(event.reason));
  captureOutput();
  try {
    const module = await import(init.url);
    const candidate: unknown = module.default;
    if (!isTool(candidate) || candidate.name !== init.name) {
      throw new Error(`default export is not the tool ${init.name}`);
    }
    if (init.fingerprint !== undefined && sandboxFingerprint(candidate) !== init.fingerprint) {
      // Described in the shared describe child, where another module could alter it.
      throw new Error(`the tool's definition differs from its description: ${init.name}`);
    }
    tool = candidate;
  } catch (error) {
    const permission = deniedPermission(error);
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    send({ t: "load_error", message, ...(permission === undefined ? {} : { permission }) });
    exit(3);
  }
  send({ t: "ready" });
  for await (const line of input) {
    if (line !== "") onMessage(parse(line) as HostMessage);
  }
  exit(0);
}

await main();
