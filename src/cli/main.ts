/**
 * The CLI entry: parse arguments, dispatch subcommands, map outcomes to
 * exit codes. stdout carries NDJSON summaries only (for `run`/`demo`).
 *
 * @module
 */

import { redirectConsoleToStderr } from "../host/console.ts";
import { guardOutput, type OutputGuard } from "../host/output_guard.ts";
import { PROMPT_BYTES } from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/schemas/common.ts";
import {
  currentDir,
  isDirectory,
  openTerminal,
  readStdinText,
  realPath,
  stdinIsTerminal,
  type Terminal,
  writeStderrLine,
  writeStdout,
} from "../runtime/mod.ts";
import { SummaryWriter } from "../summary/writer.ts";
import { resolveAgentCommand } from "./agent.ts";
import { ApprovalDecider } from "./approvals.ts";
import { parseCli, type RunArgs } from "./args.ts";
import { browseCommand } from "./browse.ts";
import { demoCommand } from "./demo.ts";
import { EXIT, UsageError } from "./exit_codes.ts";
import { helpText } from "./help.ts";
import { runHost } from "./host_run.ts";
import { toolsCommand } from "./tools_cmd.ts";
import { PACKAGE_VERSION } from "./version.ts";

const encoder = new TextEncoder();

/** A summary writer over the guard's stdout, the only writer that reaches fd 1 while guarded. */
function summaryWriter(guard: OutputGuard): SummaryWriter {
  return new SummaryWriter(guard.writeStdout, {
    onError: (error) =>
      writeStderrLine(
        `magi-tools: Cannot write summaries to stdout: ${
          error instanceof Error ? error.message : String(error)
        }`,
      ),
  });
}

/** Run the CLI with `argv` (without the program); resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  redirectConsoleToStderr();
  try {
    const args = parseCli(argv);
    switch (args.command) {
      case "help":
        await writeStdout(encoder.encode(helpText(args.topic)));
        return EXIT.ok;
      case "version":
        await writeStdout(encoder.encode(`magi-tools ${PACKAGE_VERSION}\n`));
        return EXIT.ok;
      case "tools":
        return await toolsCommand(args);
      case "demo": {
        const guard = guardOutput();
        try {
          const writer = summaryWriter(guard);
          const code = await demoCommand(writer, args.deltas);
          await writer.flush();
          return code;
        } finally {
          guard.restore();
        }
      }
      case "run":
        return await runCommand(args);
      case "sessions":
      case "history":
      case "models":
      case "select":
        return await browseCommand(args);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      writeStderrLine(`magi-tools: ${error.message}`);
      writeStderrLine("Run 'magi-tools --help' for usage.");
      return EXIT.usage;
    }
    throw error;
  }
}

async function readPrompt(args: RunArgs): Promise<string> {
  let prompt = args.prompt;
  if (prompt === undefined) {
    if (stdinIsTerminal()) {
      throw new UsageError("No prompt: pass PROMPT or pipe it on stdin");
    }
    try {
      prompt = await readStdinText(PROMPT_BYTES * 4);
    } catch (error) {
      // The strict UTF-8 decoder throws a TypeError for invalid bytes.
      if (error instanceof TypeError) throw new UsageError("Prompt on stdin is not valid UTF-8");
      throw new UsageError(
        `Cannot read the prompt from stdin: ${error instanceof Error ? error.message : error}`,
      );
    }
    prompt = prompt.replace(/\r?\n$/, "");
  }
  if (prompt.trim() === "") throw new UsageError("The prompt is blank");
  const bytes = utf8ByteLength(prompt);
  if (bytes > PROMPT_BYTES) {
    throw new UsageError(`The prompt exceeds ${PROMPT_BYTES} UTF-8 bytes: ${bytes}`);
  }
  return prompt;
}

async function runCommand(args: RunArgs): Promise<number> {
  let cwd = currentDir();
  if (args.cwd !== undefined) {
    if (!(await isDirectory(args.cwd))) {
      throw new UsageError(`Option --cwd is not a directory: ${args.cwd}`);
    }
    cwd = await realPath(args.cwd);
  }
  let terminal: Terminal | null = null;
  if (args.approve === "ask") {
    terminal = openTerminal();
    if (terminal === null) {
      throw new UsageError("Option --approve ask needs a terminal (/dev/tty)");
    }
  }
  try {
    const prompt = await readPrompt(args);
    const agent = await resolveAgentCommand(args.agent);
    if (agent.source === "reference") {
      writeStderrLine(
        "magi-tools: magi-code is not on PATH and no --agent/MAGI_CODE_AGENT given: using the reference backend",
      );
    }
    // Inline tools' raw stdout writes go to stderr and their exit calls fail the call.
    const guard = guardOutput();
    const writer = summaryWriter(guard);
    const code = await runHost({
      prompt,
      toolDirs: args.toolDirs,
      agent,
      cwd,
      session: args.session,
      approvals: new ApprovalDecider(args.approve, terminal),
      deltas: args.deltas,
      lastMessage: args.lastMessage,
      timeoutMs: args.timeoutMs,
      stallTimeoutMs: args.stallTimeoutMs,
      writer,
    }).finally(() => writer.flush()).finally(() => guard.restore());
    return code;
  } finally {
    terminal?.close();
  }
}
