/**
 * `runOneTurn`: `run` as a library function. One turn with the tools of some
 * directories against a backend, the summary records returned instead of
 * printed (nothing is written to stdout), for your own Deno program.
 *
 * @module
 */

import type { SummaryRecord } from "../summary/records.ts";
import type { CallHooks } from "../call/hooks.ts";
import type { OnApproval } from "./library_hooks.ts";
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
  /** How approvals of write tools are answered; default `"deny"` (`"ask"` with `onApproval`). */
  readonly approve?: "deny" | "allow";
  /**
   * Approval rules as `run --approve` writes them (`["allow=file_ticket", "deny"]`,
   * docs/tools.md): first match wins; `ask` only with `onApproval`.
   */
  readonly approvals?: readonly string[];
  /**
   * Decide each write tool call (that no rule decides) when it arrives, shown its validated
   * arguments: `"allow"` runs it, anything else (or a throw) denies it (`approval_denied`).
   * `signal` fires when the call is cancelled or its deadline passes.
   */
  readonly onApproval?: OnApproval;
  /** Each summary record as it is written (the live stream); a throw rejects with `HookError`. */
  readonly onRecord?: (record: SummaryRecord) => void;
  /**
   * Before each tool call runs: `{ refuse: reason }` (or a thrown `CallRefusedError`) answers
   * it `error`/`refused` instead; any other throw answers it `hook_failed`.
   */
  readonly beforeCall?: CallHooks["beforeCall"];
  /**
   * After each tool call: a string replaces the text the model gets (e.g. redaction); a throw
   * answers the call `hook_failed` (the unrewritten text is never sent).
   */
  readonly afterCall?: CallHooks["afterCall"];
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
 * @throws {ApprovalRuleError} for an invalid `approvals` rule (`ask` without `onApproval`).
 * @throws {HookError} after the turn when `onRecord` threw (the first error is its `cause`).
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
 *
 * @example Your program decides write calls, sees records live, redacts results
 * ```ts
 * import { runOneTurn } from "./one_turn.ts";
 *
 * const home = await Deno.makeTempDir();
 * const asked: string[] = [];
 * let live = 0;
 * const { records } = await runOneTurn({
 *   prompt: 'text_stats {"text":"secret words"} then write_note {"text":"hi"}',
 *   toolDirs: ["tools"],
 *   agent: "reference",
 *   env: { MC_HOME: home },
 *   // Called with the validated arguments of each write tool call: deny writes here.
 *   onApproval: (call) => {
 *     asked.push(`${call.name} ${JSON.stringify(call.arguments)}`);
 *     return "deny";
 *   },
 *   onRecord: () => live++,
 *   beforeCall: (call) => call.name === "shell" ? { refuse: "no shell here" } : undefined,
 *   afterCall: (_call, result) => result.text.replaceAll("secret", "[redacted]"),
 * });
 * await Deno.remove(home, { recursive: true });
 * console.assert(asked[0] === 'write_note {"text":"hi","file":"notes.md"}');
 * console.assert(live === records.length);
 * const denied = records.find((r) => r.type === "tool.result" && r.name === "write_note");
 * console.assert(denied?.type === "tool.result" && denied.error_code === "approval_denied");
 * ```
 */
export async function runOneTurn(options: OneTurnOptions): Promise<OneTurnResult> {
  const [
    { REQUIRED_CAPABILITIES, runBackend },
    { SummaryWriter },
    { resolveAgentCommand },
    { ApprovalDecider },
    { checkPrompt },
    { loadToolDirs, prepareToolDirs },
    { ToolRegistry },
    hooks,
  ] = await Promise.all([
    import("./backend_run.ts"),
    import("../summary/writer.ts"),
    import("./agent.ts"),
    import("./approvals.ts"),
    import("./prompt.ts"),
    import("../toolset/discovery.ts"),
    import("../toolset/registry.ts"),
    import("./library_hooks.ts"),
  ]);
  const policy = hooks.libraryPolicy(
    options.approve,
    options.approvals,
    options.onApproval !== undefined,
  );
  const prompt = checkPrompt(options.prompt);
  const agent = await resolveAgentCommand(options.agent);
  const toolDirs = [...(options.toolDirs ?? ["./tools"])];
  const tools = prepareToolDirs(toolDirs);
  tools.catch(() => {}); // Awaited just below.
  // Tool errors throw here, before a backend is started (runBackend loads the same modules again
  // from the prepared description: nothing is described or imported twice).
  ToolRegistry.fromLoaded(await loadToolDirs(toolDirs, { prepared: tools }), {
    requiredCapabilities: REQUIRED_CAPABILITIES,
  });
  const records: SummaryRecord[] = [];
  // Nothing goes to stdout: the sink drops the bytes, the observer keeps the records.
  const writer = new SummaryWriter(() => Promise.resolve());
  let recordError: unknown = undefined;
  const stop = writer.observe((record) => {
    records.push(record);
    if (options.onRecord === undefined || recordError !== undefined) return;
    try {
      options.onRecord(record);
    } catch (error) {
      recordError = error ?? new Error("onRecord threw");
    }
  });
  const callHooks = options.beforeCall === undefined && options.afterCall === undefined
    ? undefined
    : {
      ...(options.beforeCall === undefined ? {} : { beforeCall: options.beforeCall }),
      ...(options.afterCall === undefined ? {} : { afterCall: options.afterCall }),
    };
  const base = new ApprovalDecider(options.onApproval === undefined ? policy : "deny", null);
  try {
    const exitCode = await runBackend({
      prompt,
      toolDirs,
      tools,
      agent,
      cwd: options.cwd === undefined ? currentDir() : await realPath(options.cwd),
      ...(options.env === undefined ? {} : { env: { ...options.env } }),
      session: options.session,
      approvals: options.onApproval !== undefined
        ? new hooks.CallbackApprover(policy, options.onApproval, base, callHooks)
        : callHooks === undefined
        ? base
        : hooks.withCallHooks(base, callHooks),
      deltas: options.deltas ?? false,
      lastMessage: undefined,
      timeoutMs: options.timeoutMs,
      failOnToolError: options.failOnToolError ?? false,
      writer,
    });
    await writer.flush();
    if (recordError !== undefined) throw new hooks.HookError("onRecord", recordError);
    return { exitCode, records };
  } finally {
    stop();
  }
}
