/**
 * The prompt's checks, shared by `run` and {@link checkPrompt}'s library users.
 *
 * @module
 */

import { PROMPT_BYTES } from "../protocol/limits.ts";
import { UsageError } from "../errors/mod.ts";

const encoder = new TextEncoder();

/**
 * `prompt` when it is not blank and fits the protocol's prompt bound
 * (16,384 UTF-8 bytes); else throws {@link UsageError} saying which.
 *
 * @example
 * ```ts
 * import { checkPrompt } from "./prompt.ts";
 * console.assert(checkPrompt("hello") === "hello");
 * ```
 */
export function checkPrompt(prompt: string): string {
  if (prompt.trim() === "") throw new UsageError("The prompt is blank");
  const bytes = encoder.encode(prompt).length;
  if (bytes > PROMPT_BYTES) {
    throw new UsageError(`The prompt exceeds ${PROMPT_BYTES} UTF-8 bytes: ${bytes}`);
  }
  return prompt;
}
