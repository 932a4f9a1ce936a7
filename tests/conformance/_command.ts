/**
 * Which backend the conformance suite starts.
 *
 * `MAGI_BACKEND` (a shell-words command line such as `magi-code serve --stdio`) selects any
 * backend; without it the suite starts the project's reference backend.
 *
 * @module
 */

import { rootDir as REPO_ROOT } from "../_kit/root.ts";

export { REPO_ROOT };

/** Whether the suite runs against the reference backend (scenario-driven tests allowed). */
export const REFERENCE: boolean = !Deno.env.get("MAGI_BACKEND");

/**
 * Split a command line into words like a POSIX shell does for quoting (no expansion).
 *
 * @example
 * ```ts
 * import { shellWords } from "./_command.ts";
 * console.assert(shellWords(`a "b c" 'd'`).length === 3);
 * ```
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) {
        word += line[++i];
      } else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== null) throw new Error(`Unterminated quote in MAGI_BACKEND: ${line}`);
  if (inWord) words.push(word);
  return words;
}

/** The backend command line: program plus arguments (ending in `serve --stdio`). */
export function backendCommand(): string[] {
  const line = Deno.env.get("MAGI_BACKEND");
  if (line !== undefined && line.trim() !== "") return shellWords(line);
  return [
    Deno.execPath(),
    "run",
    "-A",
    "--no-prompt",
    "--config",
    `${REPO_ROOT}/deno.json`,
    `${REPO_ROOT}/src/reference_backend/main.ts`,
    "serve",
    "--stdio",
  ];
}

/** Environment every child gets beyond the per-test `HOME`/`MC_HOME`. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  // HOME is replaced per test; keep Deno's module cache where it was so children start fast.
  const denoDir = Deno.env.get("DENO_DIR") ??
    `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache`}/deno`;
  if (REFERENCE) {
    env.DENO_DIR = denoDir;
    // The reference backend validates its own output against the zod schemas (exit 70).
    env.MAGI_BACKEND_SELF_CHECK = "1";
  }
  return env;
}
