/**
 * `magi-tools mcp --http 0` as a child process for tests: waits for the URL and token lines on
 * its stderr (never a fixed sleep), keeps reading stderr, and stops it with SIGINT. The state
 * directory (`XDG_STATE_HOME`) is a fresh temporary one, so the token file never lands in the
 * real home.
 */

import { FULL_CLI, ROOT } from "../e2e/_cli.ts";

/** A running `mcp --http`. */
export interface McpHttpChild {
  /** `http://127.0.0.1:PORT/mcp`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** The token printed on stderr (undefined when it printed none: a given token). */
  readonly token: string | undefined;
  /** Its `XDG_STATE_HOME`. */
  readonly stateHome: string;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
  /** SIGINT, wait for the exit; resolves with the exit code. */
  stop(): Promise<number>;
}

/** Options of {@link startMcpHttp}. */
export interface McpHttpOptions {
  /** Tool directory. */
  readonly tools: string;
  /** More `mcp` flags. */
  readonly args?: readonly string[];
  /** More environment variables. */
  readonly env?: Record<string, string>;
  /** `deno run` permission flags (default `-A`). */
  readonly permissions?: readonly string[];
}

const URL_LINE = /serving .* at (http:\S+)/;
const TOKEN_LINE = /Authorization: Bearer (\S+) with every request/;

/** Start `mcp --http 0 --no-config --tools DIR …` and wait until it printed its URL and token. */
export async function startMcpHttp(options: McpHttpOptions): Promise<McpHttpChild> {
  const stateHome = await Deno.makeTempDir({ prefix: "magi-tools-mcp-state-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...FULL_CLI,
      ...(options.permissions ?? ["-A"]),
      `${ROOT}cli.ts`,
      "mcp",
      "--no-config",
      "--tools",
      options.tools,
      "--http",
      "0",
      ...(options.args ?? []),
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1", XDG_STATE_HOME: stateHome, ...options.env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
  try {
    // The URL and token lines come in one write: once the URL line is complete, both are here.
    while (!/serving .* at http:\S+\n/.test(seen)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`mcp --http did not start: ${seen}`);
      seen += value;
    }
  } catch (error) {
    child.kill("SIGKILL");
    await child.status;
    await Deno.remove(stateHome, { recursive: true });
    throw error;
  } finally {
    clearTimeout(deadline);
  }
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      seen += value;
    }
  })();
  const url = URL_LINE.exec(seen)![1]!;
  return {
    url,
    port: Number(new URL(url).port),
    token: TOKEN_LINE.exec(seen)?.[1],
    stateHome,
    stderr: () => seen,
    stop: async () => {
      try {
        child.kill("SIGINT");
      } catch {
        // Already exited.
      }
      const status = await child.status;
      await drained;
      await Deno.remove(stateHome, { recursive: true });
      return status.code;
    },
  };
}

/** `fetch` options whose headers carry `token` as a bearer token. */
export function bearer(token: string | undefined): RequestInit {
  return { headers: { authorization: `Bearer ${token}` } };
}
