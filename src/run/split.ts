/**
 * Split a command line shell-like: whitespace separates words; single
 * quotes keep text literally; double quotes keep whitespace and honour
 * `\"`, `\\`, `\$` and `` \` ``; a backslash outside quotes escapes the next
 * character. No expansion of variables, globs or substitutions.
 *
 * @module
 */

import { UsageError } from "../errors/mod.ts";

/**
 * Split `line` into words; throws {@link UsageError} on an unterminated
 * quote or a trailing backslash, or when there are no words.
 *
 * @example
 * ```ts
 * import { splitCommandLine } from "./split.ts";
 * const words = splitCommandLine(`deno run -A "my dir/main.ts" 'a b'`);
 * console.assert(words.length === 5 && words[3] === "my dir/main.ts" && words[4] === "a b");
 * ```
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === " " || c === "\t" || c === "\n") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new UsageError("Unterminated single quote in the agent command");
      word += line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= line.length) {
          throw new UsageError("Unterminated double quote in the agent command");
        }
        const d = line[i]!;
        if (d === '"') {
          i++;
          break;
        }
        if (d === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) {
          word += line[i + 1];
          i += 2;
          continue;
        }
        word += d;
        i++;
      }
    } else if (c === "\\") {
      if (i + 1 >= line.length) {
        throw new UsageError("Trailing backslash in the agent command");
      }
      word += line[i + 1];
      i += 2;
    } else {
      word += c;
      i++;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) throw new UsageError("The agent command is empty");
  return words;
}
