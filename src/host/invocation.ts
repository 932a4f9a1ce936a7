/**
 * How the user ran the CLI, for hints that name a command to type next
 * (`deno task start trust`, `npx magi-tools trust`, `magi-tools trust`).
 *
 * @module
 */

import { getEnvIfGranted } from "../runtime/mod.ts";

/**
 * The environment variable a task (or wrapper) sets to the command line that
 * runs the CLI: this repository's `start` task sets `deno task start`. (The
 * task's own name cannot be read otherwise: `deno task` exports no such
 * variable, and Deno needs `--allow-all` to read the parent's `/proc` entry.)
 */
export const INVOCATION_ENV = "MAGI_TOOLS_INVOCATION";

/**
 * How the user ran the CLI, for hints: `MAGI_TOOLS_INVOCATION` when set (and
 * readable without a new permission), else `magi-tools`.
 */
export function invocation(): string {
  const given = getEnvIfGranted(INVOCATION_ENV)?.trim();
  // A printable one-line command only (never a terminal escape from the environment).
  const printable = given !== undefined && given !== "" && given.length <= 100 &&
    [...given].every((c) => c >= " " && c !== "\x7f");
  return printable ? given : "magi-tools";
}
