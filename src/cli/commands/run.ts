/**
 * `run` as the CLI entry dispatches it: read the prompt, pick
 * the backend, guard stdout, and hand over to `runBackend`. Loaded lazily by
 * `main.ts`, and lean itself: the host (client, zod schemas, tool loading)
 * is imported while the prompt is read and the backend command resolved,
 * and the backend is spawned before waiting for it.
 *
 * @module
 */

import { withConfigRules } from "../../call/approval_rules.ts";
import { guardOutput } from "../../tool/output_guard.ts";
import { PROMPT_BYTES } from "../../protocol/limits.ts";
import {
  currentDir,
  isDirectory,
  openTerminal,
  readStdinText,
  realPath,
  stderrIsTerminal,
  stdinIsTerminal,
  stdoutIsTerminal,
  type Terminal,
} from "../../runtime/mod.ts";
import type { SummaryWriter } from "../../summary/writer.ts";
import type { TextView } from "../../summary/text_view.ts";
import { resolveAgentCommand } from "../../run/agent.ts";
import { type ArgumentsRecorder, recorderFor } from "../../run/record_args.ts";
import { ApprovalDecider, noTerminalMessage, policyAsks } from "../../run/approvals.ts";
import { discardBackend, startBackend } from "../../run/backend_start.ts";
import type { RunArgs } from "../args/mod.ts";
import { exitAfterOutput, summaryWriter, textView } from "./_output.ts";
import { exitCode } from "../../run/exit_codes.ts";
import { isReported, UsageError } from "../../errors/mod.ts";
import { checkPrompt } from "../../run/prompt.ts";
import { checkWritableFile } from "./_output_file.ts";
import { planTools, SourceWarnings, startPlannedSources } from "../../run/sources.ts";

/** `terminal` whose questions come after everything rendered so far, without the spinner. */
function promptsAbove(terminal: Terminal, view: TextView, writer: SummaryWriter): Terminal {
  return {
    async ask(question: string): Promise<string | null> {
      await writer.flush();
      await view.beforePrompt();
      try {
        return await terminal.ask(question);
      } finally {
        view.afterPrompt();
      }
    },
    close: () => terminal.close(),
  };
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
  // The prompt is at most 4 × PROMPT_BYTES here: encoding it once is cheap.
  return checkPrompt(prompt);
}

/** The terminal `ask` prompts on, or a usage error saying why there is none. */
function askTerminal(args: RunArgs): Terminal {
  const opened = openTerminal();
  if (opened.terminal === null) {
    throw new UsageError(noTerminalMessage(opened.reason, {
      promptOnStdin: args.prompt === undefined && !stdinIsTerminal(),
      stdin: stdinIsTerminal(),
      stderr: stderrIsTerminal(),
    }));
  }
  return opened.terminal;
}

/** `run`: one turn with the given tools; resolves with the exit code. */
export async function runCommand(args: RunArgs): Promise<number> {
  // Load the host (client, schemas, executor) while the prompt is read and the agent resolved.
  const hostModule = import("../../run/backend_run.ts");
  hostModule.catch(() => {}); // Awaited below; a usage error first must not leave it unhandled.
  let cwd = currentDir();
  if (args.cwd !== undefined) {
    if (!(await isDirectory(args.cwd))) {
      throw new UsageError(`Option --cwd is not a directory: ${args.cwd}`);
    }
    cwd = await realPath(args.cwd);
  }
  // Before anything starts: a file that cannot be written would lose the answer after the turn.
  if (args.lastMessage !== undefined) await checkWritableFile(args.lastMessage, "--last-message");
  let terminal: Terminal | null = policyAsks(args.approvals) ? askTerminal(args) : null;
  try {
    const prompt = await readPrompt(args);
    const agent = await resolveAgentCommand(args.agent);
    // The backend boots while the host's modules load and the tool modules are described (in
    // their zero-permission child; nothing of theirs is imported in the host before the guard).
    const backend = startBackend(agent, { cwd });
    // The config decides which tool directories load (planTools: an MCP- or OpenAPI-only
    // project needs no ./tools); reading it is quick, the backend boots meanwhile.
    const plan = await planTools({ ...args, cwd }).catch(async (error) => {
      await discardBackend(backend);
      throw error;
    });
    if (isReported(plan)) {
      await discardBackend(backend);
      return exitCode(plan.code);
    }
    // The flags' approval rules first, then the config's (`call/approval_rules.ts`).
    const policy = withConfigRules(args.approvals, plan.config.approvals ?? []);
    if (terminal === null && policyAsks(policy)) {
      try {
        terminal = askTerminal(args);
      } catch (error) {
        await discardBackend(backend);
        throw error;
      }
    }
    const tools = import("../../toolset/discovery.ts").then(({ prepareToolDirs }) =>
      prepareToolDirs(plan.toolDirs)
    );
    tools.catch(() => {}); // Awaited by runBackend; an early failure must not go unhandled.
    // MCP servers (magi-tools.jsonc, --mcp-config) start alongside the backend too.
    const warnings = new SourceWarnings();
    const sources = startPlannedSources(plan, {
      cwd,
      onWarning: warnings.add,
      startTimeoutMs: args.startTimeoutMs,
    });
    sources.catch(() => {}); // Awaited by runBackend.
    let modules;
    try {
      modules = await Promise.all([hostModule, import("../../summary/writer.ts")]);
    } catch (error) {
      await Promise.all([
        discardBackend(backend),
        sources.then((s) => isReported(s) ? undefined : s.close()),
      ]);
      throw error;
    }
    const [{ runBackend }, { SummaryWriter }] = modules;
    // Inline tools' raw stdout writes go to stderr and their exit calls fail the call.
    const guard = guardOutput();
    const text = (args.format ?? (stdoutIsTerminal() ? "text" : "ndjson")) === "text";
    const view = text ? await textView(guard, prompt) : null;
    const writer = summaryWriter(SummaryWriter, view === null ? guard : { writeStdout: view.sink });
    const code = await runBackend({
      backend,
      tools,
      sources,
      sourceWarnings: warnings,
      prompt,
      toolDirs: plan.toolDirs,
      configFiles: plan.config.files,
      agent,
      cwd,
      session: args.session,
      approvals: new ApprovalDecider(
        policy,
        view === null || terminal === null ? terminal : promptsAbove(terminal, view, writer),
      ),
      // The terminal view streams the assistant text and shows the calls' arguments.
      deltas: args.deltas || text,
      argumentsPreview: text,
      lastMessage: args.lastMessage,
      timeoutMs: args.timeoutMs,
      startTimeoutMs: args.startTimeoutMs,
      stallTimeoutMs: args.stallTimeoutMs,
      failOnToolError: args.failOnToolError,
      ...recordOption(recorderFor(args.recordArgs, plan.config)),
      kernelSandbox: args.kernelSandbox,
      writer,
    }).finally(() => writer.flush()).finally(() => view?.close()).finally(() => guard.restore());
    return exitAfterOutput(writer, code);
  } finally {
    terminal?.close();
  }
}

/** `recordArguments` for runBackend when there is a recorder. */
function recordOption(
  recorder: ArgumentsRecorder | undefined,
): { recordArguments?: ArgumentsRecorder } {
  return recorder === undefined ? {} : { recordArguments: recorder };
}
