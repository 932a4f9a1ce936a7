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
    return [{ kind: "say", text: `Scripted reply: ${prompt}`, repeat: 1, literal: true }];
  }
  const calls: CallStep[] = mentions.map((m, i) => ({
    tool: m.tool,
    arguments: m.arguments,
    label: `call-${i}`,
  }));
  return [{ kind: "call", calls }, { kind: "say", text: "{{results}}", repeat: 1, literal: false }];
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
