/**
 * `UsageError`: a bad flag, a bad value, a missing prompt (exit 2).
 *
 * @module
 */

import { HostError } from "./host_error.ts";

/**
 * A usage error: bad flag, bad value, missing prompt. Exit 2. A {@link HostError} with the
 * code `usage`, exported under its own name for library users (`runOneTurn` throws it).
 */
export class UsageError extends HostError<"usage"> {
  /** Create the error with `message`. */
  constructor(message: string) {
    super("usage", message);
    this.name = "UsageError";
  }
}
