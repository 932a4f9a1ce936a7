/**
 * The default planner of the scripted provider, used when no scenario turn applies.
 *
 * Every mention of a registered client tool in the prompt — `name {json object}` or a bare
 * `name` — becomes one call with that object (or `{}`), all started together. The reply is
 * then one line per result (`name → text`), or, without mentions, an echo of the prompt.
 *
 * @module
 */

import type { CallStep, Step } from "./scenario.ts";

/** One tool mention found in a prompt. */
export interface Mention {
  /** Tool name. */
  tool: string;
  /** Arguments object (`{}` when none or unparsable). */
  arguments: Record<string, unknown>;
}

/** Find mentions of `tools` in `prompt`, in order of appearance. */
export function findMentions(prompt: string, tools: readonly string[]): Mention[] {
  const hits: { index: number; tool: string }[] = [];
  for (const tool of tools) {
    const pattern = new RegExp(`(?<![A-Za-z0-9_-])${escape(tool)}(?![A-Za-z0-9_-])`, "g");
    for (const match of prompt.matchAll(pattern)) hits.push({ index: match.index, tool });
  }
  hits.sort((a, b) => a.index - b.index);
  const mentions: Mention[] = [];
  let consumedUntil = 0;
  for (const hit of hits) {
    if (hit.index < consumedUntil) continue;
    let end = hit.index + hit.tool.length;
    let args: Record<string, unknown> = {};
    const start = skipSpaces(prompt, end);
    if (prompt[start] === "{") {
      const close = objectEnd(prompt, start);
      if (close !== -1) {
        const parsed = tryObject(prompt.slice(start, close));
        if (parsed !== null) {
          args = parsed;
          end = close;
        }
      }
    }
    consumedUntil = end;
    mentions.push({ tool: hit.tool, arguments: args });
  }
  return mentions;
}

/** The default plan for `prompt` given the registered tool names. */
export function planTurn(prompt: string, tools: readonly string[]): Step[] {
  const mentions = findMentions(prompt, tools);
  if (mentions.length === 0) {
    const unknown = unknownToolHint(prompt, tools);
    const text = `Scripted reply: ${prompt}${unknown === null ? "" : `\n${unknown}`}`;
    return [{ kind: "say", text, repeat: 1, literal: true }];
  }
  const calls: CallStep[] = mentions.map((m, i) => ({
    tool: m.tool,
    arguments: m.arguments,
    label: `call-${i}`,
  }));
  return [{ kind: "call", calls }, { kind: "say", text: "{{results}}", repeat: 1, literal: false }];
}

/** At most this many tool names in {@link unknownToolHint}'s list. */
const LISTED_TOOLS = 20;

/**
 * For a prompt without mentions that still seems to name a tool — `name {json object}`, or a
 * word a registered tool's name is one or two edits from — one line saying so and which tools the
 * scripted provider knows; null when nothing looks like a tool.
 *
 * @example
 * ```ts
 * import { unknownToolHint } from "./planner.ts";
 * console.assert(unknownToolHint('Use nosuch {"a":1}', ["note"])!.startsWith("No tool named nosuch"));
 * console.assert(unknownToolHint("write_nte it", ["write_note"])!.includes("did you mean write_note?"));
 * console.assert(unknownToolHint("hello there", ["note"]) === null);
 * ```
 */
export function unknownToolHint(prompt: string, tools: readonly string[]): string | null {
  const named = new Map<string, string | null>();
  for (
    const match of prompt.matchAll(
      /(?<![A-Za-z0-9_-])([A-Za-z_][A-Za-z0-9_-]{0,63})(?![A-Za-z0-9_-])/g,
    )
  ) {
    const word = match[1]!;
    if (named.has(word)) continue;
    const near = word.length >= 5 ? closest(word, tools) : null;
    const start = skipSpaces(prompt, match.index + word.length);
    const withObject = prompt[start] === "{" && objectEnd(prompt, start) !== -1 &&
      tryObject(prompt.slice(start, objectEnd(prompt, start))) !== null;
    if (withObject || near !== null) named.set(word, near);
  }
  if (named.size === 0) return null;
  const which = [...named].map(([word, near]) =>
    near === null ? word : `${word} (did you mean ${near}?)`
  ).join(", ");
  const sorted = [...tools].sort();
  const known = sorted.length === 0
    ? "none: no client tools are registered"
    : sorted.slice(0, LISTED_TOOLS).join(", ") +
      (sorted.length > LISTED_TOOLS ? ` and ${sorted.length - LISTED_TOOLS} more` : "");
  return `No tool named ${which}: the scripted provider calls the tools the prompt names ` +
    `(name {json} or a bare name); it knows ${known}`;
}

/**
 * The registered tool `word` most likely misspells (one edit, two for names of 8 or more
 * characters; the nearest, then the first by name), or null.
 */
function closest(word: string, tools: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const tool of [...tools].sort()) {
    const distance = editDistance(word.toLowerCase(), tool.toLowerCase());
    const allowed = tool.length >= 8 ? 2 : 1;
    if (distance > 0 && distance <= allowed && distance < bestDistance) {
      best = tool;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance (insert, delete, substitute), for short names. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

function escape(text: string): string {
  return text.replace(/[-]/g, "\\-");
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i] ?? "")) i++;
  return i;
}

/** Index just past the `}` closing the object that starts at `start`, or -1. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return c === "}" ? i + 1 : -1;
    }
  }
  return -1;
}

function tryObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // Not JSON: the mention is bare.
  }
  return null;
}
