/**
 * The first-run row: `deno run -A scripts/first_run.ts` runs `demo` with an
 * empty Deno cache and prints one JSON line,
 * `{"installed": [names…], "graph": [names…], "seconds": n}`: the npm
 * packages the run downloaded, the packages of the demo's import graph
 * (its closure), and the wall time. {@link measureFirstRun} runs it and
 * never makes a number up: a missing script, a failed run or a malformed
 * line each give a `not measured` result with the reason.
 *
 * @module
 */

/** What `scripts/first_run.ts` reported. */
export interface FirstRunReport {
  /** npm packages the first run downloaded. */
  installed: string[];
  /** npm packages of the demo's import graph (its closure). */
  graph: string[];
  /** Wall time of the first run, s. */
  seconds: number;
}

/** The first-run row's input: measured, or why not. */
export type FirstRunResult =
  | ({ status: "measured" } & FirstRunReport)
  | { status: "not measured"; reason: string };

/** The script, relative to the repository root. */
export const FIRST_RUN_SCRIPT = "scripts/first_run.ts";

function names(value: unknown, key: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new TypeError(`"${key}" is not an array of package names`);
  }
  return value;
}

/**
 * The report on the last non-empty line of the script's stdout. Throws a
 * `TypeError` naming the key at fault.
 *
 * @example
 * ```ts
 * import { parseFirstRunOutput } from "./first_run.ts";
 * const report = parseFirstRunOutput('{"installed":["zod"],"graph":["zod"],"seconds":3.5}\n');
 * console.assert(report.installed[0] === "zod" && report.seconds === 3.5);
 * ```
 */
export function parseFirstRunOutput(stdout: string): FirstRunReport {
  const line = stdout.split("\n").map((l) => l.trim()).filter((l) => l !== "").at(-1);
  if (line === undefined) throw new TypeError("No output line");
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new TypeError(`Last line is not JSON: ${line.slice(0, 80)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError("Last line is not a JSON object");
  }
  const record = value as Record<string, unknown>;
  const seconds = record.seconds;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
    throw new TypeError(`"seconds" is not a non-negative number`);
  }
  return {
    installed: names(record.installed, "installed"),
    graph: names(record.graph, "graph"),
    seconds,
  };
}

/** Options of {@link measureFirstRun}. */
export interface MeasureFirstRunOptions {
  /** Repository root (default: this repository). */
  repo?: string;
  /** Kill the script's process group and give up after this many ms (default 600,000). */
  timeoutMs?: number;
}

/**
 * Run `scripts/first_run.ts` once (`deno run -A`, in the repository root,
 * in its own process group so a timeout ends every process it started).
 */
export async function measureFirstRun(
  options: MeasureFirstRunOptions = {},
): Promise<FirstRunResult> {
  const repo = (options.repo ?? new URL("../", import.meta.url).pathname).replace(/\/?$/, "/");
  try {
    await Deno.stat(`${repo}${FIRST_RUN_SCRIPT}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { status: "not measured", reason: `${FIRST_RUN_SCRIPT} missing` };
    }
    throw error;
  }
  const timeoutMs = options.timeoutMs ?? 600_000;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", FIRST_RUN_SCRIPT],
    cwd: repo,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
    detached: true,
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      Deno.kill(-child.pid, "SIGKILL");
    } catch {
      // The group has already exited.
    }
  }, timeoutMs);
  try {
    const { code, stdout } = await child.output();
    if (timedOut) {
      return {
        status: "not measured",
        reason: `${FIRST_RUN_SCRIPT} timed out after ${timeoutMs / 1000} s`,
      };
    }
    if (code !== 0) {
      return { status: "not measured", reason: `${FIRST_RUN_SCRIPT} failed: exit ${code}` };
    }
    try {
      return { status: "measured", ...parseFirstRunOutput(new TextDecoder().decode(stdout)) };
    } catch (error) {
      return {
        status: "not measured",
        reason: `${FIRST_RUN_SCRIPT} printed no valid result: ${(error as Error).message}`,
      };
    }
  } finally {
    clearTimeout(timer);
  }
}
