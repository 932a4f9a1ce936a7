/**
 * Usage-error help: the nearest known option or command to a mistyped one
 * ("did you mean"), and the command line as the user ran it, for the
 * "Run '… --help' for usage." hint.
 *
 * @module
 */

/**
 * The candidate `word` most likely mistypes, or null: at most one edit for
 * words of up to 4 characters, two for longer ones, three from 9 on (an
 * adjacent swap counts as one edit); the nearest wins, then the first given.
 * Case is ignored.
 *
 * @example
 * ```ts
 * import { closestWord } from "./suggest.ts";
 * console.assert(closestWord("--formt", ["--format", "--tools"]) === "--format");
 * console.assert(closestWord("rnu", ["run", "tools"]) === "run");
 * console.assert(closestWord("xyz", ["run", "tools"]) === null);
 * ```
 */
export function closestWord(word: string, candidates: readonly string[]): string | null {
  const bare = word.replace(/^-+/, "");
  const allowed = bare.length <= 4 ? 1 : bare.length <= 8 ? 2 : 3;
  let best: string | null = null;
  let bestDistance = allowed + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best === word ? null : best;
}

/** ` (did you mean 'X'?)` for the nearest of `candidates`, or `""`. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = closestWord(word, candidates);
  return near === null ? "" : ` (did you mean '${near}'?)`;
}

export { invocation, INVOCATION_ENV } from "../../host/invocation.ts";

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1]!;
      let value = Math.min(
        above[j]! + 1,
        row[j - 1]! + 1,
        above[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      }
      row.push(value);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
