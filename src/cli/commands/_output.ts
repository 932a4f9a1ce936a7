/**
 * The stdout of `run` and `demo`: NDJSON summary records through the output guard, or the
 * terminal transcript (`--format text`, or stdout is a terminal).
 *
 * @module
 */

import type { OutputGuard } from "../../tool/output_guard.ts";
import { EXIT } from "../../run/exit_codes.ts";
import { getEnv, stdoutIsTerminal, writeStderrLine } from "../../runtime/mod.ts";
import type { SummaryWriter } from "../../summary/writer.ts";
import type { TextView } from "../../summary/text_view.ts";

/** Writers whose stdout was closed by its reader (`run … | head -1`). */
const closedByReader = new WeakSet<SummaryWriter>();

/** Whether `error` says the reading end of stdout is gone (EPIPE). */
export function isBrokenPipe(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown } | null;
  return e?.name === "BrokenPipe" || e?.code === "EPIPE" || e?.code === "ERR_STREAM_DESTROYED";
}

/**
 * A summary writer over the guard's stdout, the only writer that reaches fd 1 while guarded.
 * A closed stdout (its reader is gone: `run … | head -1`) is no error to report: the turn
 * stops as for any lost stdout, quietly, and {@link exitAfterOutput} gives exit 141.
 */
export function summaryWriter(
  Writer: typeof import("../../summary/writer.ts").SummaryWriter,
  guard: Pick<OutputGuard, "writeStdout">,
): SummaryWriter {
  const writer: SummaryWriter = new Writer(guard.writeStdout, {
    onError: (error) => {
      if (isBrokenPipe(error)) {
        closedByReader.add(writer);
        return;
      }
      writeStderrLine(
        `magi-tools: Cannot write summaries to stdout: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    },
  });
  return writer;
}

/**
 * The exit code of `run`/`demo` given `writer`: {@link EXIT.brokenPipe} (141, as a process
 * ended by SIGPIPE) when the reader closed stdout, else `code`.
 */
export function exitAfterOutput(writer: SummaryWriter, code: number): number {
  return closedByReader.has(writer) ? EXIT.brokenPipe : code;
}

/** The terminal view over the guard's stdout (`--format text`, or stdout is a terminal). */
export async function textView(guard: OutputGuard, prompt: string): Promise<TextView> {
  const { TextView, colorFromEnv } = await import("../../summary/text_view.ts");
  const live = stdoutIsTerminal();
  const env = (name: string) => {
    try {
      return getEnv(name);
    } catch {
      return undefined; // Not readable under these permissions: as if unset.
    }
  };
  return new TextView({ write: guard.writeStdout, color: colorFromEnv(env, live), live, prompt });
}
