/**
 * `ToolLoadError`: a tool directory or module that cannot be loaded (discovery, the host-input
 * check of the sandbox, the batch's per-item directories).
 *
 * @module
 */

import { HostError } from "./host_error.ts";

/**
 * A tool directory or module could not be loaded: a `HostError` with the code `tool_load`,
 * under its own name for library users (`runOneTurn` throws it).
 */
export class ToolLoadError extends HostError<"tool_load"> {
  /** The module (or directory) at fault. */
  readonly file: string;
  /** Why, without the file name. */
  readonly reason: string;

  /** `Tool module failed to load: <file>: <reason>`, or `message` when given. */
  constructor(file: string, reason: string, options: { message?: string; cause?: unknown } = {}) {
    super(
      "tool_load",
      options.message ?? `Tool module failed to load: ${file}: ${reason}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "ToolLoadError";
    this.file = file;
    this.reason = reason;
  }
}
