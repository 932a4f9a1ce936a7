/**
 * What a warm tool process (`tool_process.ts`) is started with,
 * {@link ToolProcessSpec}, and how a call on it ends, {@link ProcessOutcome}.
 *
 * @module
 */

/** How a call on a process ended (before the runner applies grace and kill). */
export type ProcessOutcome =
  | { readonly kind: "value"; readonly text: string }
  | { readonly kind: "content"; readonly parts: readonly unknown[] }
  | { readonly kind: "too_large"; readonly bytes: number }
  | { readonly kind: "invalid"; readonly text: string }
  | { readonly kind: "invalid_output"; readonly text: string }
  | {
    readonly kind: "thrown";
    readonly message: string;
    readonly stack?: string;
    readonly permission?: string;
  }
  | {
    readonly kind: "crashed";
    readonly message: string;
    readonly permission?: string;
    /**
     * Killed by SIGINT: a terminal's Ctrl-C reached the process (in the instant between its
     * start and its `setsid()`, while it is still in the terminal's process group).
     */
    readonly interrupted?: true;
  };

/** How to start a tool process. */
export interface ToolProcessSpec {
  /** Tool name (checked by the child against the module's default export). */
  readonly name: string;
  /** The tool module's file URL. */
  readonly url: string;
  /** `deno` executable. */
  readonly denoPath: string;
  /** Flags before the runner: `--no-prompt`, `--allow-*`, `--v8-flags`, `--preload`. */
  readonly flags: readonly string[];
  /** The child's working directory. */
  readonly cwd: string;
  /**
   * Memory cap in MiB, for the error messages (the launcher enforces it: `RLIMIT_DATA`, see
   * `containment.ts`).
   */
  readonly memoryMb?: number;
  /** `sandboxFingerprint()` of the tool as described; the runner checks its own against it. */
  readonly fingerprint?: string;
  /**
   * Wraps the `deno` arguments (`run`, flags, runner) into the kernel layer's launcher
   * command (`kernel.ts` `launchArgs`); absent: `deno run` directly.
   */
  readonly launch?: (denoArgs: readonly string[]) => string[];
  /**
   * A command the whole launch runs under (`ProcessLimits.wrapper`: `unshare` for a PID
   * namespace); absent or empty: none. {@link ToolProcess.pid} is then the wrapper's.
   */
  readonly wrapper?: readonly string[];
  /**
   * The process's whole environment (`tool_env.ts`); absent: the host's, plus `NO_COLOR=1`.
   */
  readonly env?: Readonly<Record<string, string>>;
}
