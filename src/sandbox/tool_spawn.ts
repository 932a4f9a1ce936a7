/**
 * The start of a warm tool process: `deno run` with the tool's flags and the
 * runner (`runner.ts`), through the kernel layer's launcher and the
 * containment wrapper when given, in its own process group, with the tool's
 * environment and no OpenTelemetry export of its own.
 *
 * @module
 */

import { wrapped } from "./containment.ts";
import type { ToolProcessSpec } from "./tool_process_spec.ts";
import { type ChildHandle, spawnChild, SpawnError } from "../runtime/mod.ts";

const RUNNER_PATH = new URL("./runner.ts", import.meta.url).href;

/** Throws the file system's error when `path` cannot be found (an unknown: nothing). */
function assertRunnable(path: string): void {
  try {
    Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      throw error;
    }
  }
}

/**
 * Spawn the child of `spec` with piped stdin, stdout and stderr.
 *
 * @throws the reason a spawn failed (for example a missing `--allow-run`), or the file
 * system's error when a wrapper is given and `spec.denoPath` cannot be found.
 */
export function spawnToolProcess(spec: ToolProcessSpec): ChildHandle {
  try {
    const args = ["run", ...spec.flags, RUNNER_PATH];
    // Under a wrapper a missing Deno would only show as the wrapper's exit code.
    if ((spec.wrapper ?? []).length > 0) assertRunnable(spec.denoPath);
    const command = wrapped(
      { wrapper: spec.wrapper ?? [] },
      spec.denoPath,
      spec.launch?.(args) ?? args,
    );
    return spawnChild(command.command, command.args, {
      cwd: spec.cwd,
      stderr: "piped",
      // No OpenTelemetry export of its own (its exporter would be a network channel out of
      // the sandbox, and Deno's fetch spans would start unrelated traces): the host traces
      // the call and hands the tool `ctx.traceparent` (docs/telemetry.md).
      ...(spec.env === undefined
        ? { env: { NO_COLOR: "1", OTEL_DENO: "false" } }
        : { env: { ...spec.env, OTEL_DENO: "false" }, clearEnv: true }),
    });
  } catch (error) {
    // The reason (for example a missing --allow-run) rather than the generic wrapper.
    throw error instanceof SpawnError && error.cause instanceof Error ? error.cause : error;
  }
}
