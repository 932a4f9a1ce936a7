/**
 * The presentation projection of a stored session: stored records in stored order →
 * history entries, chunked for the wire.
 *
 * - `user` → `user`; `assistant` → one reconciled `assistant` copy (its stored `text`, or
 *   for legacy records without text the concatenation of stored `chunks`).
 * - `activity` → `activity` (`name state: summary`), partial while only started; never a
 *   raw result body.
 * - `reasoning_summary` → only with stored `provider_summary: true`; a repeated
 *   (`run_id`, `item_id`) replaces the earlier entry in place.
 * - `compaction` → its `summary`; `tool_card` → the card as JSON, only when `cards`.
 * - `run_finished` of a failed or cancelled run → a `diagnostic`; a run with input but no
 *   `run_finished` record (interrupted) → a partial `diagnostic` and an incomplete projection.
 * - `title` and `session_preferences` are metadata, not entries.
 *
 * Text is sanitized (no control characters but LF and tab, well-formed), then split into
 * parts whose JSON-escaped form is at most 16,384 bytes, so each part fits both the raw
 * chunk bound and, with its entry fields, the serialized page bound.
 *
 * @module
 */

import { HISTORY_CHUNK_BYTES } from "../../protocol/limits.ts";
import { WIRE_ID_PATTERN } from "../../protocol/schemas/common.ts";
import type { StoredRecord } from "./session_store.ts";
import { replaceControlExceptTabLf } from "../../text/control.ts";

/** One history entry on the wire. */
export interface HistoryEntry {
  message_id: string;
  kind: string;
  text: string;
  partial: boolean;
  part: number;
  last_part: boolean;
}

/** A logical message before chunking. */
interface Message {
  id: string;
  kind: string;
  text: string;
  partial: boolean;
}

/** The projection of one stored session. */
export interface Projection {
  /** Entries (parts), in stored order. */
  entries: HistoryEntry[];
  /** False when an interrupted turn has no durable completion. */
  complete: boolean;
}

/** Project `records`; `cards` adds `tool_card` entries (negotiated `tool.cards`). */
export function projectHistory(
  records: readonly StoredRecord[],
  options: { cards: boolean },
): Projection {
  const messages: Message[] = [];
  const used = new Set<string>();
  const summaries = new Map<string, Message>();
  const finished = new Set<string>();
  for (const record of records) {
    if (record.type === "run_finished" && typeof record.run_id === "string") {
      finished.add(record.run_id);
    }
  }
  let complete = true;
  let openRun: string | null = null;
  const closeRun = (index: number): void => {
    if (openRun !== null && !finished.has(openRun)) {
      complete = false;
      messages.push({
        id: `h-${index}-interrupted`,
        kind: "diagnostic",
        text: "Turn interrupted without durable completion",
        partial: true,
      });
    }
    openRun = null;
  };
  const idOf = (record: StoredRecord, key: string, index: number): string => {
    const stored = record[key];
    const id = typeof stored === "string" && WIRE_ID_PATTERN.test(stored) && !used.has(stored)
      ? stored
      : `h-${index}`;
    used.add(id);
    return id;
  };
  records.forEach((record, index) => {
    const runId = typeof record.run_id === "string" ? record.run_id : null;
    switch (record.type) {
      case "user":
        if (runId !== openRun) closeRun(index);
        openRun = runId;
        messages.push(message(idOf(record, "message_id", index), "user", record.text));
        break;
      case "assistant": {
        const text = typeof record.text === "string" ? record.text : legacyChunks(record.chunks);
        messages.push(message(idOf(record, "message_id", index), "assistant", text));
        break;
      }
      case "activity": {
        const name = str(record.name);
        const state = str(record.state);
        const summary = str(record.summary);
        const entry = message(idOf(record, "activity_id", index), "activity", "");
        entry.text = summary === "" ? `${name} ${state}` : `${name} ${state}: ${summary}`;
        entry.partial = state === "started";
        messages.push(entry);
        break;
      }
      case "reasoning_summary": {
        if (record.provider_summary !== true) break;
        const key = typeof record.item_id === "string" ? `${runId}\u0000${record.item_id}` : null;
        const earlier = key === null ? undefined : summaries.get(key);
        if (earlier !== undefined) {
          earlier.text = sanitize(str(record.text));
          break;
        }
        const entry = message(idOf(record, "message_id", index), "reasoning_summary", record.text);
        messages.push(entry);
        if (key !== null) summaries.set(key, entry);
        break;
      }
      case "compaction":
        messages.push(message(idOf(record, "message_id", index), "compaction", record.summary));
        break;
      case "tool_card":
        if (options.cards) {
          messages.push(message(idOf(record, "card_id", index), "tool_card", cardText(record)));
        }
        break;
      case "run_finished":
        if (record.outcome === "failed" || record.outcome === "cancelled") {
          const code = typeof record.error_code === "string" ? ` (${record.error_code})` : "";
          const text = record.outcome === "failed" ? `Run failed${code}` : "Run cancelled";
          messages.push(message(`h-${index}`, "diagnostic", text));
        }
        if (runId === openRun) openRun = null;
        break;
      default:
        break;
    }
  });
  closeRun(records.length);
  return { entries: messages.flatMap(chunkMessage), complete };
}

function message(id: string, kind: string, text: unknown): Message {
  return { id, kind, text: sanitize(str(text)), partial: false };
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function legacyChunks(chunks: unknown): string {
  if (!Array.isArray(chunks)) return "";
  return chunks.filter((c): c is string => typeof c === "string").join("");
}

function cardText(record: StoredRecord): string {
  return JSON.stringify({
    card_id: record.card_id,
    activity_id: record.activity_id,
    title: record.title,
    state: record.state,
    fields: record.fields,
  });
}

/** `text` well-formed and without control characters other than LF and tab. */
export function sanitize(text: string): string {
  return replaceControlExceptTabLf(text.toWellFormed(), " ");
}

function chunkMessage(m: Message): HistoryEntry[] {
  const parts = splitEscaped(m.text, HISTORY_CHUNK_BYTES);
  return parts.map((text, part) => ({
    message_id: m.id,
    kind: m.kind,
    text,
    partial: m.partial,
    part,
    last_part: part === parts.length - 1,
  }));
}

/** Split `text` so that each part's JSON-escaped UTF-8 form is at most `maxBytes`. */
export function splitEscaped(text: string, maxBytes: number): string[] {
  const parts: string[] = [];
  let current = "";
  let bytes = 0;
  for (const char of text) {
    const size = escapedBytes(char);
    if (bytes + size > maxBytes) {
      parts.push(current);
      current = "";
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  if (current !== "" || parts.length === 0) parts.push(current);
  return parts;
}

function escapedBytes(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (char === '"' || char === "\\") return 2;
  if (code < 0x20) return code === 0x0a || code === 0x09 || code === 0x0d ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code < 0x10000) return 3;
  return 4;
}
