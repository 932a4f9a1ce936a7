/**
 * Golden NDJSON matching with wildcards: each non-empty golden line is a JSON
 * object; the string `"*"` matches any value (any type); objects must have
 * exactly the golden's keys. Lines match in order, except between
 * `# unordered` and `# end`, where the block's lines match the next as many
 * actual lines in any order. Other `#` lines are comments.
 *
 * @module
 */

/** Whether `actual` matches `pattern` (`"*"` is a wildcard). */
export function matchesPattern(pattern: unknown, actual: unknown): boolean {
  if (pattern === "*") return true;
  if (Array.isArray(pattern)) {
    return Array.isArray(actual) && actual.length === pattern.length &&
      pattern.every((p, i) => matchesPattern(p, actual[i]));
  }
  if (pattern !== null && typeof pattern === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    const keys = Object.keys(pattern);
    const actualKeys = Object.keys(actual);
    if (keys.length !== actualKeys.length) return false;
    return keys.every((k) =>
      k in actual &&
      matchesPattern(
        (pattern as Record<string, unknown>)[k],
        (actual as Record<string, unknown>)[k],
      )
    );
  }
  return Object.is(pattern, actual);
}

type Block = { unordered: boolean; patterns: unknown[] };

function parseGolden(text: string): Block[] {
  const blocks: Block[] = [];
  let group: Block | null = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    if (line === "# unordered") {
      group = { unordered: true, patterns: [] };
      continue;
    }
    if (line === "# end") {
      if (group !== null) blocks.push(group);
      group = null;
      continue;
    }
    if (line.startsWith("#")) continue;
    const pattern = JSON.parse(line);
    if (group !== null) group.patterns.push(pattern);
    else blocks.push({ unordered: false, patterns: [pattern] });
  }
  if (group !== null) throw new SyntaxError("Golden file has '# unordered' without '# end'");
  return blocks;
}

/**
 * Compare actual NDJSON records with a golden text. Returns null when they
 * match, else a message naming the first mismatch.
 */
export function matchGolden(golden: string, actual: unknown[]): string | null {
  const blocks = parseGolden(golden);
  let at = 0;
  for (const block of blocks) {
    const window = actual.slice(at, at + block.patterns.length);
    if (window.length < block.patterns.length) {
      return `Missing records from line ${at + 1}: expected ${JSON.stringify(block.patterns)}`;
    }
    if (!block.unordered) {
      if (!matchesPattern(block.patterns[0], window[0])) {
        return `Line ${at + 1} differs:\n  expected ${
          JSON.stringify(block.patterns[0])
        }\n  actual   ${JSON.stringify(window[0])}`;
      }
    } else {
      const left = [...block.patterns];
      for (const [i, record] of window.entries()) {
        const index = left.findIndex((p) => matchesPattern(p, record));
        if (index < 0) {
          return `Line ${at + i + 1} matches no line of its unordered block: ${
            JSON.stringify(record)
          }`;
        }
        left.splice(index, 1);
      }
    }
    at += block.patterns.length;
  }
  if (at !== actual.length) return `Unexpected extra records from line ${at + 1}`;
  return null;
}
