/**
 * Black-box harness: one backend over pipes, every output frame checked.
 *
 * The backend is a child over real pipes, or, for the reference backend, served in this
 * process over in-memory pipes (`_transport.ts`); `process: true` asks for a child (launch
 * checks and other process-level behaviour). Each backend gets a temporary workspace (`cwd`,
 * `HOME`, `MC_HOME`) that is removed when the workspace is disposed. Every wait has a timeout
 * that fails with a clear message, and {@link Backend.close} always ends the backend (EOF,
 * SIGTERM, then SIGKILL) and waits for everything it started.
 *
 * @module
 */

import { startTransport, type Transport } from "./_transport.ts";
import { type EventFrame, FrameChecker, type OutputFrame, type ResponseFrame } from "./_frames.ts";
import { PROTOCOL, VERSION } from "../../src/protocol/limits.ts";

export type { EventFrame, OutputFrame, ResponseFrame };

/**
 * Default wait for any single expected frame or exit: generous, since only a failing test waits
 * it out, and the suite runs modules in parallel (an 8 MiB history page took over 8 s on a loaded
 * machine).
 */
export const WAIT_MS = 30_000;

/** How long {@link Backend.requestWhenFree} retries a `busy` answer (a cleanup's end). */
export const BUSY_RETRY_MS = 10_000;

/** Temporary directories one or more children share. */
export class Workspace {
  /** Root temp dir (removed by {@link Workspace.dispose}). */
  readonly root: string;
  /** Working directory of the child (exists). */
  readonly cwd: string;
  /** `MC_HOME` of the child (NOT created: startup creates it). */
  readonly mcHome: string;
  /** `HOME` of the child (exists, empty). */
  readonly home: string;

  private constructor(root: string) {
    this.root = root;
    this.cwd = `${root}/cwd`;
    this.mcHome = `${root}/mc_home`;
    this.home = `${root}/home`;
  }

  /** Create a fresh workspace under the system temp dir. */
  static async create(): Promise<Workspace> {
    const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-conf-" }));
    const ws = new Workspace(root);
    await Deno.mkdir(ws.cwd);
    await Deno.mkdir(ws.home);
    return ws;
  }

  /** Another cwd inside this workspace (created). */
  async otherCwd(name: string): Promise<string> {
    const dir = `${this.root}/${name}`;
    await Deno.mkdir(dir, { recursive: true });
    return dir;
  }

  /** Write `$MC_HOME/settings.json` (creating MC_HOME). */
  async writeSettings(text: string): Promise<void> {
    await Deno.mkdir(this.mcHome, { recursive: true });
    await Deno.writeTextFile(`${this.mcHome}/settings.json`, text);
  }

  /** Write a scenario file and return its path. */
  async writeScenario(value: unknown, name = "scenario.jsonc"): Promise<string> {
    const path = `${this.root}/${name}`;
    await Deno.writeTextFile(path, typeof value === "string" ? value : JSON.stringify(value));
    return path;
  }

  /** Whether a path exists. */
  async exists(path: string): Promise<boolean> {
    try {
      await Deno.lstat(path);
      return true;
    } catch {
      return false;
    }
  }

  /** Remove everything. */
  async dispose(): Promise<void> {
    await Deno.remove(this.root, { recursive: true }).catch(() => {});
  }
}

/** How to start one backend. */
export interface StartOptions {
  /** Shared workspace; a private one is created (and disposed on close) when omitted. */
  readonly workspace?: Workspace;
  /** Working directory override (default the workspace cwd). */
  readonly cwd?: string;
  /** Arguments appended after the backend command line (launch tests; needs `process`). */
  readonly extraArgs?: readonly string[];
  /** Start a child process even for the reference backend (process-level behaviour). */
  readonly process?: boolean;
  /** Extra environment (e.g. `MAGI_SCENARIO`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Read stdout only once {@link Backend.resumeReading} is called. */
  readonly paused?: boolean;
}

const encoder = new TextEncoder();
const STDERR_CAP = 1 << 20;

/** One backend, a child or served in-process. */
export class Backend {
  /** The workspace the backend runs in. */
  readonly workspace: Workspace;
  /** Every parsed output frame, in order. */
  readonly frames: OutputFrame[] = [];
  /** Bytes after the last LF when stdout closed (a partial frame, not a message). */
  partialTail = 0;
  #transport: Transport;
  #ownWorkspace: boolean;
  #checker = new FrameChecker();
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #writes: Promise<unknown>[] = [];
  #stdinClosed = false;
  #stdoutDone = false;
  #stdoutLoop: Promise<void>;
  #paused = false;
  #stdoutReader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #stderrLoop: Promise<void>;
  #stderr: Uint8Array[] = [];
  #stderrBytes = 0;
  #listeners = new Set<() => void>();
  #exit: Deno.CommandStatus | undefined;
  #status: Promise<Deno.CommandStatus>;
  #nextId = 0;

  private constructor(transport: Transport, ws: Workspace, own: boolean, paused: boolean) {
    this.#transport = transport;
    this.workspace = ws;
    this.#ownWorkspace = own;
    this.#writer = transport.stdin.getWriter();
    this.#status = transport.status.then((s) => {
      this.#exit = s;
      this.#notify();
      return s;
    });
    this.#stderrLoop = this.#readStderr();
    this.#paused = paused;
    this.#stdoutLoop = this.#readStdout();
  }

  /** Start the backend (a child when `process` is set or the backend is not the reference). */
  static async start(options: StartOptions = {}): Promise<Backend> {
    const own = options.workspace === undefined;
    const ws = options.workspace ?? await Workspace.create();
    const transport = await startTransport({
      cwd: options.cwd ?? ws.cwd,
      env: { HOME: ws.home, MC_HOME: ws.mcHome, ...options.env },
      ...(options.extraArgs === undefined ? {} : { extraArgs: options.extraArgs }),
      ...(options.process === undefined ? {} : { process: options.process }),
    });
    return new Backend(transport, ws, own, options.paused === true);
  }

  /** Whether the backend is a child process. */
  get process(): boolean {
    return this.#transport.process;
  }

  /** Rules broken by any output frame so far. */
  get violations(): readonly string[] {
    return this.#checker.violations;
  }

  /** Collected stderr as text. */
  get stderr(): string {
    const all = new Uint8Array(this.#stderrBytes);
    let at = 0;
    for (const c of this.#stderr) {
      all.set(c, at);
      at += c.length;
    }
    return new TextDecoder().decode(all);
  }

  /** Exit status once the child has exited. */
  get exited(): Deno.CommandStatus | undefined {
    return this.#exit;
  }

  /** Whether stdout reached EOF. */
  get stdoutClosed(): boolean {
    return this.#stdoutDone;
  }

  /** Tell the frame checker that `client.tools` is negotiated. */
  allowClientTools(): void {
    this.#checker.allowClientTools();
  }

  /** Tell the frame checker that `tool.cards` is negotiated. */
  allowToolCards(): void {
    this.#checker.allowToolCards();
  }

  /** A request ID never used before in this child. */
  freshId(prefix = "r"): string {
    return `${prefix}${++this.#nextId}`;
  }

  /** Write raw bytes (or text) to stdin; resolves false when the pipe is broken. */
  send(bytes: Uint8Array | string): Promise<boolean> {
    const data = typeof bytes === "string" ? encoder.encode(bytes) : bytes;
    const write = this.#writer.write(data).then(() => true, () => false);
    this.#writes.push(write);
    return write;
  }

  /** Send one request envelope; returns its ID. */
  sendRequest(method: string, params: unknown, id: string = this.freshId()): Promise<string> {
    const frame = { protocol: PROTOCOL, version: VERSION, id, method, params };
    return this.send(`${JSON.stringify(frame)}\n`).then(() => id);
  }

  /** Send a request and wait for its response frame. */
  async request(
    method: string,
    params: unknown = {},
    options: { id?: string; timeoutMs?: number } = {},
  ): Promise<ResponseFrame> {
    const from = this.frames.length;
    const id = await this.sendRequest(method, params, options.id ?? this.freshId());
    return await this.waitResponse(id, options.timeoutMs, from);
  }

  /**
   * Send many requests in writes of `window` frames, waiting for each window's answers
   * before the next (a client must bound its in-flight requests: the backend holds at most
   * 32 pending output frames). Returns the responses in request order.
   */
  async pipeline(
    requests: ReadonlyArray<{ id: string; method: string; params: unknown }>,
    window = 16,
  ): Promise<ResponseFrame[]> {
    const out: ResponseFrame[] = [];
    for (let at = 0; at < requests.length; at += window) {
      const batch = requests.slice(at, at + window);
      const from = this.frames.length;
      const text = batch.map((r) =>
        `${JSON.stringify({ protocol: PROTOCOL, version: VERSION, ...r })}\n`
      ).join("");
      await this.send(text);
      for (const r of batch) out.push(await this.waitResponse(r.id, WAIT_MS, from));
    }
    return out;
  }

  /**
   * Send a request; while it is answered `busy`, send it again (every 50 ms, at most
   * {@link BUSY_RETRY_MS}). The spec lets the backend answer `busy` until the previous
   * operation's or run's cleanup ends: `session.create`/`session.open` are answered before
   * "releasing previous ownership after cleanup", and `turn.start` is `busy` on "another
   * run/cleanup". A `busy` answer has no effect, so a client waits and retries. Tests that
   * assert `busy` use {@link request}.
   */
  async requestWhenFree(method: string, params: unknown = {}): Promise<ResponseFrame> {
    const deadline = Date.now() + BUSY_RETRY_MS;
    for (;;) {
      const res = await this.request(method, params);
      if (res.error?.code !== "busy" || Date.now() >= deadline) return res;
      await this.settle(50);
    }
  }

  /** Send a request that must succeed ({@link requestWhenFree}); returns its result. */
  async call(method: string, params: unknown = {}): Promise<Record<string, unknown>> {
    const res = await this.requestWhenFree(method, params);
    if (res.result === undefined) {
      throw new Error(`${method} failed with ${res.error?.code ?? "?"}${this.#context()}`);
    }
    return res.result;
  }

  /** Wait for the response with `id` (a string, or null for an unattributed error). */
  waitResponse(id: string | null, timeoutMs = WAIT_MS, from = 0): Promise<ResponseFrame> {
    return this.waitFrame(
      (f): f is ResponseFrame => f.type === "response" && f.id === id,
      `response to ${id === null ? "null id" : id}`,
      { timeoutMs, from },
    );
  }

  /** Wait for an event named `name` matching `predicate`, at or after frame index `from`. */
  waitEvent(
    name: string,
    predicate: (data: Record<string, unknown>) => boolean = () => true,
    options: { timeoutMs?: number; from?: number } = {},
  ): Promise<EventFrame> {
    return this.waitFrame(
      (f): f is EventFrame => f.type === "event" && f.event === name && predicate(f.data),
      `event ${name}`,
      options,
    );
  }

  /** Wait for the first frame (from index `from`) matching `match`. */
  async waitFrame<T extends OutputFrame>(
    match: (f: OutputFrame) => f is T,
    what: string,
    options: { timeoutMs?: number; from?: number } = {},
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? WAIT_MS;
    let scanned = options.from ?? 0;
    const deadline = Date.now() + timeoutMs;
    while (true) {
      for (; scanned < this.frames.length; scanned++) {
        const f = this.frames[scanned]!;
        if (match(f)) return f;
      }
      if (this.#stdoutDone) {
        throw new Error(`Stdout closed while waiting for ${what}${this.#context()}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${this.#context()}`);
      }
      await this.#changed(left);
    }
  }

  /** Wait until the child exits; fails unless its code is one of `codes`. */
  async expectExit(codes: number | readonly number[], timeoutMs = WAIT_MS): Promise<number> {
    const want = typeof codes === "number" ? [codes] : codes;
    const deadline = Date.now() + timeoutMs;
    while (this.#exit === undefined) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `Backend did not exit within ${timeoutMs} ms (want ${want})${this.#context()}`,
        );
      }
      await this.#changed(left);
    }
    this.resumeReading();
    await this.#stdoutLoop;
    const code = this.#exit.code;
    if (!want.includes(code)) {
      throw new Error(`Backend exited with ${code}, want ${want.join(" or ")}${this.#context()}`);
    }
    return code;
  }

  /** Stop reading stdout (at most one more chunk is read) until {@link resumeReading}. */
  pauseReading(): void {
    this.#paused = true;
  }

  /** Read stdout again (also for children spawned with `paused`). */
  resumeReading(): void {
    this.#paused = false;
    this.#notify();
  }

  /** Close our end of stdout (the backend's next write breaks). */
  async closeStdout(): Promise<void> {
    this.#paused = false;
    await this.#stdoutReader?.cancel().catch(() => {});
    await this.#stdoutLoop;
  }

  /** Close stdin (EOF). */
  async closeStdin(): Promise<void> {
    if (this.#stdinClosed) return;
    this.#stdinClosed = true;
    await Promise.allSettled(this.#writes);
    await this.#writer.close().catch(() => {});
  }

  /** Let the loop run for `ms` (to observe that nothing else arrives). */
  settle(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /**
   * Always end the backend: EOF, wait, SIGTERM, wait, SIGKILL; wait for everything it started
   * (a child reaped, an in-process connection disposed of); then drop the workspace.
   */
  async close(): Promise<void> {
    if (this.#exit === undefined) {
      this.#stdinClosed = true;
      this.#writer.close().catch(() => {});
      for (const [signal, waitMs] of [["SIGTERM", 500], ["SIGKILL", 1_000]] as const) {
        if (await this.#exitedWithin(waitMs)) break;
        try {
          this.#transport.kill(signal);
        } catch { /* already gone */ }
      }
      await this.#status;
    }
    await this.#transport.finished();
    this.#writer.abort().catch(() => {});
    await Promise.allSettled(this.#writes);
    this.resumeReading();
    await this.#stdoutLoop;
    await this.#stderrLoop;
    if (this.#ownWorkspace) await this.workspace.dispose();
  }

  /** Frames and stderr tail for failure messages. */
  #context(): string {
    const last = this.frames.slice(-6).map((f) => JSON.stringify(f).slice(0, 300)).join("\n  ");
    const err = this.stderr.slice(-1500);
    const exit = this.#exit === undefined ? "running" : `exited ${this.#exit.code}`;
    return `\n  backend ${exit}; last frames:\n  ${last}\n  stderr: ${err}`;
  }

  async #exitedWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.#exit === undefined && Date.now() < deadline) {
      await this.#changed(deadline - Date.now());
    }
    return this.#exit !== undefined;
  }

  #changed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#listeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#listeners.add(done);
    });
  }

  #notify(): void {
    for (const l of [...this.#listeners]) l();
  }

  async #readStdout(): Promise<void> {
    let pending: Uint8Array = new Uint8Array(0);
    const reader = this.#transport.stdout.getReader();
    this.#stdoutReader = reader;
    try {
      while (true) {
        while (this.#paused && this.#exit === undefined) await this.#changed(1_000);
        const { value: chunk, done } = await reader.read();
        if (done) break;
        let buf = pending.length === 0 ? chunk : concat(pending, chunk);
        let at = buf.indexOf(10);
        while (at !== -1) {
          const frame = this.#checker.check(buf.subarray(0, at));
          if (frame !== undefined) this.frames.push(frame);
          buf = buf.subarray(at + 1);
          at = buf.indexOf(10);
        }
        pending = buf.slice();
        this.#notify();
      }
    } catch { /* stream broken */ }
    reader.releaseLock();
    this.partialTail = pending.length;
    this.#stdoutDone = true;
    this.#notify();
  }

  async #readStderr(): Promise<void> {
    try {
      for await (const chunk of this.#transport.stderr) {
        if (this.#stderrBytes + chunk.length <= STDERR_CAP) {
          this.#stderr.push(chunk);
          this.#stderrBytes += chunk.length;
        }
      }
    } catch { /* ignore */ }
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * Run `body` with a fresh backend; always close it, then fail on any output-frame violation.
 */
export async function withBackend(
  options: StartOptions,
  body: (backend: Backend) => Promise<void>,
): Promise<void> {
  const backend = await Backend.start(options);
  try {
    await body(backend);
  } finally {
    await backend.close();
  }
  if (backend.violations.length > 0) {
    throw new Error(`Output frames broke the wire contract:\n  ${backend.violations.join("\n  ")}`);
  }
}
