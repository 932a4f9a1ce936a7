/**
 * Run one agent as a child in its own session and process group, bounded in time; afterwards
 * the whole group is killed (the agent's MCP servers included) and whether anything of it was
 * still alive is reported.
 *
 * @module
 */

import { spawn } from "node:child_process";

/** What one agent run produced. */
export interface AgentRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** The run hit its time bound and was killed. */
  timedOut: boolean;
  /** Processes of its group were still alive after the agent exited (then killed). */
  leftovers: boolean;
  ms: number;
}

/** Options of {@link runAgent}. */
export interface RunOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Kill the group after this long (a failure, never a hang). */
  timeoutMs: number;
}

/** Run the agent to its exit or its time bound. */
export function runAgent(options: RunOptions): Promise<AgentRun> {
  const started = Date.now();
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on(
    "data",
    (chunk: string) => stdout += chunk,
  );
  child.stderr.setEncoding("utf8").on(
    "data",
    (chunk: string) => stderr += chunk,
  );
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid, "SIGKILL");
  }, options.timeoutMs);
  const exited = new Promise<{ code: number | null; signal: string | null }>(
    (resolve, reject) => {
      child.on("error", reject);
      child.on("exit", (code, signal) => resolve({ code, signal }));
    },
  );
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return (async () => {
    try {
      const { code, signal } = await exited;
      // What the agent started may take a moment to go after it: wait for the group to empty.
      const leftovers = !(await groupGone(child.pid, LEFTOVER_GRACE_MS));
      killGroup(child.pid, "SIGKILL");
      await closed;
      return {
        code,
        signal,
        stdout,
        stderr,
        timedOut,
        leftovers,
        ms: Date.now() - started,
      };
    } finally {
      clearTimeout(timer);
      killGroup(child.pid, "SIGKILL");
    }
  })();
}

/** How long the agent's children may take to exit after it did. */
const LEFTOVER_GRACE_MS = 5_000;

async function groupGone(
  pid: number | undefined,
  withinMs: number,
): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (groupAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

function groupAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid: number | undefined, signal: "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch { /* the group is gone */ }
}
