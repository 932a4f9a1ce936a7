/**
 * Keep inline tools' console output off stdout.
 *
 * The host's stdout carries NDJSON summaries only. A tool that calls
 * `console.log` would corrupt that stream, so while tools may run the host
 * sends every stdout-writing console method to stderr instead.
 *
 * Only the console is covered here; `output_guard.ts` routes writes through
 * `Deno.stdout` / `process.stdout` to stderr while tools run, and
 * process-isolated tools have their own stdout anyway. Neither is a boundary:
 * an inline tool is host code and can write fd 1 directly (`node:fs`
 * `writeSync(1, …)`, `/dev/stdout`); see `output_guard.ts`.
 *
 * @module
 */

import { Console } from "node:console";
import process from "node:process";

/** Console methods that write to stdout. */
const STDOUT_METHODS = [
  "log",
  "info",
  "debug",
  "table",
  "dir",
  "dirxml",
  "group",
  "groupCollapsed",
  "groupEnd",
  "count",
  "countReset",
  "time",
  "timeLog",
  "timeEnd",
] as const;

type Method = typeof STDOUT_METHODS[number];

/**
 * Route `console.log`, `info`, `debug`, `table`, `dir` (and the other methods
 * that print to stdout: groups, counters, timers) to stderr. Returns a
 * function that restores the original methods; calling it twice is harmless.
 *
 * @example
 * ```ts
 * import { redirectConsoleToStderr } from "./console.ts";
 * const restore = redirectConsoleToStderr();
 * try {
 *   console.log("goes to stderr");
 * } finally {
 *   restore();
 * }
 * ```
 */
export function redirectConsoleToStderr(): () => void {
  const target = console as unknown as Record<Method, unknown>;
  const originals = new Map<Method, unknown>(STDOUT_METHODS.map((name) => [name, target[name]]));
  const stderrConsole = new Console({ stdout: process.stderr, stderr: process.stderr });
  const replacement = stderrConsole as unknown as Record<Method, (...args: unknown[]) => void>;
  for (const name of STDOUT_METHODS) target[name] = replacement[name].bind(stderrConsole);
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    for (const [name, original] of originals) target[name] = original;
  };
}
