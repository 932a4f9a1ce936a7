/**
 * The stdout of `run` and `demo`: NDJSON summary records through the output guard, or the
 * terminal transcript (`--format text`, or stdout is a terminal).
 *
 * @module
 */

import type { OutputGuard } from "../../host/output_guard.ts";
import { getEnv, stdoutIsTerminal, writeStderrLine } from "../../runtime/mod.ts";
import type { SummaryWriter } from "../../summary/writer.ts";
import type { TextView } from "../../summary/text_view.ts";

/** A summary writer over the guard's stdout, the only writer that reaches fd 1 while guarded. */
export function summaryWriter(
  Writer: typeof import("../../summary/writer.ts").SummaryWriter,
  guard: Pick<OutputGuard, "writeStdout">,
): SummaryWriter {
  return new Writer(guard.writeStdout, {
    onError: (error) =>
      writeStderrLine(
        `magi-tools: Cannot write summaries to stdout: ${
          error instanceof Error ? error.message : String(error)
        }`,
      ),
  });
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
