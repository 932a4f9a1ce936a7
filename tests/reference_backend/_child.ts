/** A reference backend child over real pipes, for black-box tests. Always killed and reaped. */

const BACKEND = new URL("../../src/reference_backend/main.ts", import.meta.url).pathname;

/** One output frame, loosely typed for assertions. */
export type Frame = Record<string, unknown> & {
  type: string;
  seq: number;
  id?: string | null;
  result?: Record<string, unknown>;
  error?: { code: string };
  event?: string;
  data?: Record<string, unknown>;
};

/** A running child with a temporary MC_HOME and cwd. */
export class Child {
  readonly frames: Frame[] = [];
  readonly #process: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #root: string;
  readonly #reading: Promise<void>;
  readonly #stderr: Promise<string>;
  /** Waiters woken on every chunk of frames and at the end of stdout. */
  readonly #waiters = new Set<() => void>();
  #next = 0;

  private constructor(process: Deno.ChildProcess, root: string) {
    this.#process = process;
    this.#root = root;
    this.#writer = process.stdin.getWriter();
    this.#reading = this.#read();
    this.#stderr = new Response(process.stderr).text().catch(() => "");
  }

  /** What the child wrote on stderr, once it exited (for failure messages). */
  stderr(): Promise<string> {
    return this.#stderr;
  }

  /** Spawn `serve --stdio` in a fresh workspace. */
  static async spawn(
    env: Record<string, string> = {},
    options: { cwd?: string } = {},
  ): Promise<Child> {
    const root = await Deno.makeTempDir();
    await Deno.mkdir(`${root}/cwd`);
    const cwd = options.cwd ?? `${root}/cwd`;
    const process = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", BACKEND, "serve", "--stdio"],
      cwd,
      env: { MC_HOME: `${root}/home`, MAGI_BACKEND_SELF_CHECK: "1", NO_COLOR: "1", ...env },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    return new Child(process, root);
  }

  /** Working directory created for the child. */
  get cwd(): string {
    return `${this.#root}/cwd`;
  }

  /** Storage root of the child. */
  get mcHome(): string {
    return `${this.#root}/home`;
  }

  /** Send one request; resolves with its response. */
  async request(method: string, params: Record<string, unknown>): Promise<Frame> {
    const id = `r${++this.#next}`;
    const line = JSON.stringify({
      protocol: "magi-code.local-agent",
      version: 1,
      id,
      method,
      params,
    });
    await this.#writer.write(new TextEncoder().encode(line + "\n"));
    return await this.waitFor((f) => f.type === "response" && f.id === id);
  }

  /** Write raw request lines in one write (pipelined). */
  async sendLines(requests: { id: string; method: string; params: unknown }[]): Promise<void> {
    const text = requests.map((r) =>
      JSON.stringify({ protocol: "magi-code.local-agent", version: 1, ...r }) + "\n"
    ).join("");
    await this.#writer.write(new TextEncoder().encode(text));
  }

  /**
   * Wait (at most `timeoutMs`, default 10 s) for a frame matching `predicate`: checked when
   * called and again as each chunk of frames arrives (no polling).
   */
  async waitFor(predicate: (frame: Frame) => boolean, timeoutMs = 10_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    let checked = 0;
    for (;;) {
      const at = this.frames.findIndex((frame, index) => index >= checked && predicate(frame));
      if (at !== -1) return this.frames[at]!;
      checked = this.frames.length;
      if (Date.now() >= deadline || !await this.#changed(deadline - Date.now())) break;
    }
    throw new Error(`Timed out after ${timeoutMs} ms waiting for a frame`);
  }

  /** Resolves true when frames arrive (or stdout ends), false after `ms` without. */
  #changed(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(wake);
        resolve(false);
      }, ms);
      this.#waiters.add(wake);
    });
  }

  /** Wait for an event named `event` whose data matches `where` (at most `timeoutMs`). */
  event(
    event: string,
    where: (data: Record<string, unknown>) => boolean = () => true,
    timeoutMs?: number,
  ) {
    return this.waitFor(
      (f) => f.type === "event" && f.event === event && where(f.data ?? {}),
      timeoutMs,
    );
  }

  /** Close stdin, wait for exit (kill after 5 s), remove the workspace; resolves the code. */
  async close(): Promise<number> {
    await this.#writer.close().catch(() => {});
    const timer = setTimeout(() => this.#process.kill("SIGKILL"), 5000);
    const status = await this.#process.status;
    clearTimeout(timer);
    await this.#reading.catch(() => {});
    await this.#stderr;
    await Deno.remove(this.#root, { recursive: true });
    return status.code;
  }

  async #read(): Promise<void> {
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of this.#process.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      // One pass over the chunk's lines (not a copy of the rest per line): a test that streams
      // megabytes must drain as fast as the backend writes, or it meets the output deadline.
      let start = 0;
      let at: number;
      while ((at = buffer.indexOf("\n", start)) !== -1) {
        this.frames.push(JSON.parse(buffer.slice(start, at)));
        start = at + 1;
      }
      buffer = buffer.slice(start);
      for (const wake of [...this.#waiters]) wake();
    }
    for (const wake of [...this.#waiters]) wake();
  }
}
