/**
 * The CLI's exit codes (`docs/cli.md`).
 *
 * @module
 */

/** Exit codes of `magi-tools`. */
export const EXIT = Object.freeze(
  {
    /** The turn completed (or the subcommand succeeded). */
    ok: 0,
    /** The run failed, or `--timeout` cancelled it. */
    runFailed: 1,
    /** Usage error, or a tool module / registry error. */
    usage: 2,
    /** The backend could not start: spawn failure, initialize error, failed status. */
    startup: 3,
    /** Protocol violation, descriptor mismatch, or the backend died after startup. */
    protocol: 4,
    /** Interrupted by SIGINT. */
    interrupted: 130,
  } as const,
);

/** A usage error: bad flag, bad value, missing prompt. Exit 2. */
export class UsageError extends Error {
  /** Create the error with `message`. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
