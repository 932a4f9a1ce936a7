/**
 * The batch input: JSON Lines, one item per line,
 * `{"id", "prompt", "session"?, "cwd"?}`. The whole file is checked before
 * anything runs; every problem names its line number.
 *
 * @example
 * ```ts
 * import { parseBatchInput } from "./input.ts";
 * const items = parseBatchInput('{"id":"a","prompt":"hi"}\n\n{"id":"b","prompt":"yo"}\n', "in.jsonl");
 * console.assert(items.length === 2 && items[1]!.line === 3);
 * ```
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";
import { PROMPT_BYTES } from "../protocol/limits.ts";

/** One item of a batch. */
export interface BatchItem {
  /** Unique id, `^[A-Za-z0-9._-]{1,64}$` (also its file name under `items/`). */
  readonly id: string;
  /** The prompt of its turn. */
  readonly prompt: string;
  /** Open this session instead of creating one. */
  readonly session?: string;
  /** Working directory of its backend and tools (default: the batch's). */
  readonly cwd?: string;
  /** 1-based line number in the input file. */
  readonly line: number;
}

/** A bad input file: a `batch_input` host error whose message names the file and line. */
function inputError(message: string): HostError<"batch_input"> {
  return new HostError("batch_input", message);
}

/** Item ids: also file names, so no separators and no leading-dot-only names. */
export const ITEM_ID_PATTERN: RegExp = /^[A-Za-z0-9._-]{1,64}$/;

const KEYS = new Set(["id", "prompt", "session", "cwd"]);
const encoder = new TextEncoder();

/**
 * Parse and check the whole input (`name` is used in messages). Blank lines are skipped.
 * Throws a `batch_input` host error on the first bad line or duplicate id.
 */
export function parseBatchInput(text: string, name: string): BatchItem[] {
  const items: BatchItem[] = [];
  const seen = new Map<string, number>();
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const where = `${name}:${line}`;
    const source = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (source.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      throw inputError(
        `Batch input line is not JSON: ${where}: ${error instanceof Error ? error.message : error}`,
      );
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw inputError(`Batch input line is not a JSON object: ${where}`);
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!KEYS.has(key)) {
        throw inputError(`Batch input has an unknown key ${key}: ${where}`);
      }
    }
    const { id, prompt, session, cwd } = record;
    if (typeof id !== "string" || !ITEM_ID_PATTERN.test(id) || /^\.+$/.test(id)) {
      throw inputError(
        `Batch input id must match ${ITEM_ID_PATTERN.source} (and not be only dots): ${where}`,
      );
    }
    const first = seen.get(id);
    if (first !== undefined) {
      throw inputError(
        `Batch input id ${id} is repeated: ${where} (first on line ${first})`,
      );
    }
    seen.set(id, line);
    if (typeof prompt !== "string" || prompt.trim() === "") {
      throw inputError(`Batch input prompt must be a non-blank string: ${where}`);
    }
    const bytes = encoder.encode(prompt).length;
    if (bytes > PROMPT_BYTES) {
      throw inputError(
        `Batch input prompt exceeds ${PROMPT_BYTES} UTF-8 bytes (${bytes}): ${where}`,
      );
    }
    if (session !== undefined && (typeof session !== "string" || session === "")) {
      throw inputError(`Batch input session must be a non-empty string: ${where}`);
    }
    if (cwd !== undefined && (typeof cwd !== "string" || cwd === "")) {
      throw inputError(`Batch input cwd must be a non-empty string: ${where}`);
    }
    items.push({
      id,
      prompt,
      line,
      ...(session === undefined ? {} : { session }),
      ...(cwd === undefined ? {} : { cwd }),
    });
  }
  return items;
}
