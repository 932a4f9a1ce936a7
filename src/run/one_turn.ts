/**
 * `runOneTurn`: `run` as a library function. One turn with the tools of some
 * directories against a backend, the summary records returned instead of
 * printed (nothing is written to stdout), for your own Deno program.
 *
 * @module
 */

import type { SummaryRecord } from "../summary/records.ts";
import { currentDir, realPath } from "../runtime/mod.ts";

/** Options of {@link runOneTurn}. */
export interface OneTurnOptions {
  /** The prompt (non-blank, at most 16,384 UTF-8 bytes). */
  readonly prompt: string;
  /** Tool directories, as `run --tools`; default `["./tools"]`. */
  readonly toolDirs?: readonly string[];
  /**
   * The backend command line, split shell-like as `run --agent`; default as
   * `run`: `MAGI_CODE_AGENT`, else `magi-code serve --stdio` on `PATH`.
   * `"reference"` is the scripted reference backend (Deno only); it is never
   * chosen unasked.
   */
  readonly agent?: string;
  /** Working directory of the backend and the tools; default the current one. */
  readonly cwd?: string;
  /** Extra environment for the backend (e.g. `MC_HOME`, `MAGI_SCENARIO`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Open this durable session instead of creating one (`run --session`). */
  readonly session?: string;
  /** How approvals of write tools are answered; default `"deny"`. */
  readonly approve?: "deny" | "allow";
  /** Also return `message.delta` records. */
  readonly deltas?: boolean;
  /** Whole-turn deadline in milliseconds (`run --timeout`). */
  readonly timeoutMs?: number;
  /** Exit code 1 when a tool call ended in error or was denied (`run --fail-on-tool-error`). */
  readonly failOnToolError?: boolean;
}

/** What {@link runOneTurn} returns. */
export interface OneTurnResult {
  /** The exit code `run` would exit with (`docs/cli.md`): 0 when the turn completed. */
  readonly exitCode: number;
  /** Every summary record, in order, as `run` would print them (`docs/summaries.md`). */
  readonly records: readonly SummaryRecord[];
}

/**
 * Run one turn, as `magi-tools run` does, and return the summary records
 * instead of printing them. The backend is started, initialized with the
 * tools, shut down and reaped before this resolves; SIGINT cancels the turn
 * while it runs (exit code 130). Diagnostics go to stderr, as in `run`.
 *
 * @throws {UsageError} for a blank or too-large prompt or a malformed `agent`
 *   command line; a `HostError` `backend_unavailable` when no backend is named
 *   and `magi-code` is not on PATH; a tool module that cannot be loaded throws its
 *   `ToolLoadError` (or `RegistryError`), before any backend starts.
 *
 * @example One turn with the repository's example tools against the reference backend
 * ```ts
 * import { runOneTurn } from "./one_turn.ts";
 *
 * const home = await Deno.makeTempDir();
 * const { exitCode, records } = await runOneTurn({
 *   prompt: 'Use text_stats {"text":"one two three"} please',
 *   toolDirs: ["tools"],
 *   agent: "reference",
 *   env: { MC_HOME: home },
 * });
 * await Deno.remove(home, { recursive: true });
 * console.assert(exitCode === 0);
 * const result = records.find((record) => record.type === "tool.result");
 * console.assert(result?.type === "tool.result" && result.outcome === "success");
 * console.assert(records.at(-1)?.type === "turn.finished");
 * ```
 */
export async function runOneTurn(options: OneTurnOptions): Promise<OneTurnResult> {
  const [
    { REQUIRED_CAPABILITIES, runHost },
    { SummaryWriter },
    { resolveAgentCommand },
    { ApprovalDecider },
    { checkPrompt },
    { loadToolDirs, prepareToolDirs },
    { ToolRegistry },
  ] = await Promise.all([
    import("./host_run.ts"),
    import("../summary/writer.ts"),
    import("./agent.ts"),
    import("./approvals.ts"),
    import("./prompt.ts"),
    import("../host/discovery.ts"),
    import("../host/registry.ts"),
  ]);
  const prompt = checkPrompt(options.prompt);
  const agent = await resolveAgentCommand(options.agent);
  const toolDirs = [...(options.toolDirs ?? ["./tools"])];
  const tools = prepareToolDirs(toolDirs);
  tools.catch(() => {}); // Awaited just below.
  // Tool errors throw here, before a backend is started (runHost loads the same modules again
  // from the prepared description: nothing is described or imported twice).
  ToolRegistry.fromLoaded(await loadToolDirs(toolDirs, { prepared: tools }), {
    requiredCapabilities: REQUIRED_CAPABILITIES,
  });
  const records: SummaryRecord[] = [];
  // Nothing goes to stdout: the sink drops the bytes, the observer keeps the records.
  const writer = new SummaryWriter(() => Promise.resolve());
  const stop = writer.observe((record) => records.push(record));
  try {
    const exitCode = await runHost({
      prompt,
      toolDirs,
      tools,
      agent,
      cwd: options.cwd === undefined ? currentDir() : await realPath(options.cwd),
      ...(options.env === undefined ? {} : { env: { ...options.env } }),
      session: options.session,
      approvals: new ApprovalDecider(options.approve ?? "deny", null),
      deltas: options.deltas ?? false,
      lastMessage: undefined,
      timeoutMs: options.timeoutMs,
      failOnToolError: options.failOnToolError ?? false,
      writer,
    });
    await writer.flush();
    return { exitCode, records };
  } finally {
    stop();
  }
}
