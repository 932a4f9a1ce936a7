/**
 * `demo` as the CLI entry dispatches it: pick the transcript or NDJSON, guard stdout, and run
 * the demonstration (`src/cli/commands/_demo.ts`).
 *
 * @module
 */

import { guardOutput } from "../../tool/output_guard.ts";
import { stdoutIsTerminal, writeStderrLine } from "../../runtime/mod.ts";
import type { DemoArgs } from "../args/mod.ts";
import { exitAfterOutput, summaryWriter, textView } from "./_output.ts";

/**
 * `demo`: the built-in demonstration against the reference backend, as a transcript on a
 * terminal (or `--format text`) and NDJSON elsewhere; resolves with the exit code.
 */
export async function demoCommand(args: DemoArgs): Promise<number> {
  const [{ runDemo, DEMO_PROMPT }, { SummaryWriter }] = await Promise.all([
    import("./_demo.ts"),
    import("../../summary/writer.ts"),
  ]);
  const text = (args.format ?? (stdoutIsTerminal() ? "text" : "ndjson")) === "text";
  if (text && args.format === undefined) {
    writeStderrLine(
      "magi-tools demo: a transcript, as stdout is a terminal; --format ndjson (or a pipe) prints the NDJSON records",
    );
  }
  const guard = guardOutput();
  const view = text ? await textView(guard, DEMO_PROMPT) : null;
  try {
    const writer = summaryWriter(SummaryWriter, view === null ? guard : { writeStdout: view.sink });
    // The transcript streams the assistant text and shows the calls' arguments, as for run.
    const code = await runDemo(writer, { deltas: args.deltas || text, argumentsPreview: text });
    await writer.flush();
    return exitAfterOutput(writer, code);
  } finally {
    await view?.close();
    guard.restore();
  }
}
