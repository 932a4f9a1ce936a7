/**
 * `call`: run one tool without a backend, through exactly the executor path
 * a `client.tool.call` takes ({@link directCall}), with the default
 * `client.tools` limits. The tools are those `run` would register: the tool
 * directories and the config's sources (`magi-tools.jsonc`, `--config`).
 * stdout gets the result text (or one JSON record with `--json`); a
 * process-isolated tool's captured output goes to stderr. On a terminal the
 * result text's control characters are shown visibly (`terminalText`), as
 * in every stderr line; into a pipe or file it is written exactly.
 *
 * Exit codes: 0 success, 1 a tool error (its code and text on stderr), 2
 * usage, an unknown tool or a tool-module error, 130 Ctrl-C (the call is
 * cancelled first and the tool processes reaped).
 *
 * @module
 */

import { directCall, type DirectCallResult } from "../../call/direct_call.ts";
import { callRecord } from "../../run/call_record.ts";
import { ToolExecutor, type ToolFailure } from "../../call/executor.ts";
import { guardOutput } from "../../tool/output_guard.ts";
import { parseStrictJson } from "../../protocol/json.ts";
import { CLIENT_TOOLS_LIMITS } from "../../protocol/limits.ts";
import {
  currentDir,
  isDirectory,
  onInterrupt,
  readStdinText,
  realPath,
  stdinIsTerminal,
  stdoutIsTerminal,
  terminalSafeJson,
  terminalText,
  writeStderrLine,
} from "../../runtime/mod.ts";
import type { CallArgs } from "../args/mod.ts";
import { exitCode } from "../../run/exit_codes.ts";
import { isHostError, isReported, UsageError } from "../../errors/mod.ts";
import { loadRegistry } from "../../run/backend_run.ts";
import { withConfiguredSources } from "../../run/sources.ts";
import type { StartedSources } from "../../sources/start.ts";

const encoder = new TextEncoder();

async function readArguments(args: CallArgs): Promise<unknown> {
  let source = "the ARGS argument";
  let json = args.argsJson;
  if (json === undefined) {
    if (stdinIsTerminal()) return {};
    source = "stdin";
    try {
      json = await readStdinText(CLIENT_TOOLS_LIMITS.arguments_bytes * 4);
    } catch (error) {
      throw new UsageError(
        `Cannot read the arguments from stdin: ${error instanceof Error ? error.message : error}`,
      );
    }
    if (json.trim() === "") return {};
  }
  const parsed = parseStrictJson(json.trim());
  if (!parsed.ok) {
    throw new UsageError(`Arguments in ${source} are not valid JSON (${parsed.code})`);
  }
  return parsed.value;
}

/** Run `call`; resolves with the exit code. */
export async function callCommand(args: CallArgs): Promise<number> {
  let cwd = currentDir();
  if (args.cwd !== undefined) {
    if (!(await isDirectory(args.cwd))) {
      throw new UsageError(`Option --cwd is not a directory: ${args.cwd}`);
    }
    cwd = await realPath(args.cwd);
  }
  const input = await readArguments(args);
  // The config's tool sources (MCP servers, OpenAPI documents), as for run; stopped on every
  // exit path.
  return await withConfiguredSources(
    { ...args, cwd },
    (external, toolDirs, configFiles) =>
      callWith(args, input, { cwd, toolDirs, external, configFiles }),
  );
}

/** Where `call` runs: the working directory and the tools (directories and sources' tools). */
interface CallSetting {
  readonly cwd: string;
  readonly toolDirs: string[];
  /** The config files in use: host inputs no tool may write. */
  readonly configFiles: readonly string[];
  readonly external: StartedSources["tools"];
}

async function callWith(args: CallArgs, input: unknown, setting: CallSetting): Promise<number> {
  const { cwd } = setting;
  const registry = await loadRegistry(setting.toolDirs, {
    external: setting.external,
    cwd,
    configFiles: setting.configFiles,
  });
  if (isReported(registry)) return exitCode(registry.code);

  const logs: string[] = [];
  // One failure, one report: the result line below, then the tool's own frames (the
  // executor's "Tool … failed" line would say the same a second time). With --json stdout has
  // the result, and stderr the executor's report alone.
  let frames: readonly string[] = [];
  const executor = new ToolExecutor(registry, {
    limits: CLIENT_TOOLS_LIMITS,
    cwd,
    ...(args.json ? {} : { onToolFailure: (failure: ToolFailure) => frames = failure.frames }),
    onLog: (log) => {
      logs.push(log.text);
      if (!args.json) writeStderrLine(log.text.replace(/\n$/, ""));
    },
  });
  const stop = new AbortController();
  let interrupted = false;
  const removeInterrupt = onInterrupt(() => {
    interrupted = true;
    stop.abort();
  });
  // Inline tools' raw stdout writes go to stderr; only the result reaches stdout.
  const guard = guardOutput();
  try {
    let result: DirectCallResult;
    try {
      result = await directCall(executor, registry, args.name, input, {
        signal: stop.signal,
        ...(args.timeoutMs === undefined ? {} : { timeoutMs: args.timeoutMs }),
      });
    } catch (error) {
      if (isHostError(error, "usage")) {
        writeStderrLine(`magi-tools: ${error.message}`);
        return exitCode(error.code);
      }
      throw error;
    }
    if (args.json) {
      const typed = registry.get(result.name)?.outputSchema !== undefined;
      const record = callRecord(result, logs.length === 0 ? null : logs.join(""), typed);
      await guard.writeStdout(encoder.encode(terminalSafeJson(record) + "\n"));
    } else if (result.outcome === "success") {
      const text = result.text === "" || result.text.endsWith("\n")
        ? result.text
        : result.text + "\n";
      // The tool's text is data: on a terminal it cannot set titles, the clipboard or the cursor.
      await guard.writeStdout(encoder.encode(stdoutIsTerminal() ? terminalText(text) : text));
    } else {
      writeStderrLine(
        [
          `magi-tools: ${result.errorCode ?? result.outcome}: ${result.text}`,
          ...frames.map((frame) => `    ${frame}`),
        ].join("\n"),
      );
    }
    if (interrupted || result.outcome === "cancelled") return exitCode("interrupted");
    return exitCode(result.outcome === "success" ? "ok" : "run_failed");
  } finally {
    guard.restore();
    removeInterrupt();
    await executor.close();
  }
}
