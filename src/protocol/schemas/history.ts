/**
 * `history.page` schemas, including the `tool_card` entry kind for clients
 * that negotiated `tool.cards`.
 *
 * @module
 */

import { z } from "zod";
import { HISTORY_CHUNK_BYTES, HISTORY_PAGE_ENTRIES } from "../limits.ts";
import { boundedString, SessionIdSchema, WireIdSchema } from "./common.ts";

/** History entry kinds of the base protocol. */
export const BASE_HISTORY_ENTRY_KINDS = [
  "user",
  "assistant",
  "reasoning_summary",
  "activity",
  "compaction",
  "diagnostic",
] as const;

/** History entry kinds with `tool.cards` negotiated (adds `tool_card`). */
export const HISTORY_ENTRY_KINDS = [...BASE_HISTORY_ENTRY_KINDS, "tool_card"] as const;

/** `history.page` params; `cursor` may be omitted (same as null: the first page). */
export const HistoryPageParamsSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    revision: z.ZodString;
    cursor: z.ZodExactOptional<z.ZodNullable<z.ZodString>>;
  },
  z.core.$strict
> = z.strictObject({
  session_id: SessionIdSchema,
  revision: WireIdSchema,
  cursor: z.exactOptional(WireIdSchema.nullable()),
});
/** `history.page` params. */
export type HistoryPageParams = z.infer<typeof HistoryPageParamsSchema>;

function entrySchema<K extends readonly [string, ...string[]]>(kinds: K) {
  return z.strictObject({
    message_id: WireIdSchema,
    kind: z.enum(kinds),
    text: boundedString(HISTORY_CHUNK_BYTES),
    partial: z.boolean(),
    part: z.int().min(0),
    last_part: z.boolean(),
  });
}

function pageSchema<E extends z.ZodType>(entry: E) {
  return z.strictObject({
    session_id: SessionIdSchema,
    revision: WireIdSchema,
    entries: z.array(entry).max(HISTORY_PAGE_ENTRIES),
    next_cursor: WireIdSchema.nullable(),
    complete: z.boolean(),
  });
}

/** A base-protocol history entry (clients without `tool.cards`). */
export const BaseHistoryEntrySchema: z.ZodObject<
  {
    message_id: z.ZodString;
    kind: z.ZodEnum<
      {
        activity: "activity";
        diagnostic: "diagnostic";
        user: "user";
        assistant: "assistant";
        reasoning_summary: "reasoning_summary";
        compaction: "compaction";
      }
    >;
    text: z.ZodString;
    partial: z.ZodBoolean;
    part: z.ZodInt;
    last_part: z.ZodBoolean;
  },
  z.core.$strict
> = entrySchema(BASE_HISTORY_ENTRY_KINDS);
/** A base-protocol history entry. */
export type BaseHistoryEntry = z.infer<typeof BaseHistoryEntrySchema>;

/**
 * A history entry of any kind, including `tool_card` (whose `text` is the card
 * as JSON, possibly split across parts; its content is not validated here).
 */
export const HistoryEntrySchema: z.ZodObject<
  {
    message_id: z.ZodString;
    kind: z.ZodEnum<
      {
        activity: "activity";
        diagnostic: "diagnostic";
        user: "user";
        assistant: "assistant";
        reasoning_summary: "reasoning_summary";
        compaction: "compaction";
        tool_card: "tool_card";
      }
    >;
    text: z.ZodString;
    partial: z.ZodBoolean;
    part: z.ZodInt;
    last_part: z.ZodBoolean;
  },
  z.core.$strict
> = entrySchema(HISTORY_ENTRY_KINDS);
/** A history entry of any kind. */
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** `history.page` result for a client that did not negotiate `tool.cards`. */
export const BaseHistoryPageResultSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    revision: z.ZodString;
    entries: z.ZodArray<typeof BaseHistoryEntrySchema>;
    next_cursor: z.ZodNullable<z.ZodString>;
    complete: z.ZodBoolean;
  },
  z.core.$strict
> = pageSchema(BaseHistoryEntrySchema);
/** `history.page` result without `tool_card` entries. */
export type BaseHistoryPageResult = z.infer<typeof BaseHistoryPageResultSchema>;

/**
 * `history.page` result allowing `tool_card` entries. This is the registry's
 * schema; a client that did not negotiate `tool.cards` must use
 * {@link BaseHistoryPageResultSchema} (or reject `tool_card` itself).
 */
export const HistoryPageResultSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    revision: z.ZodString;
    entries: z.ZodArray<typeof HistoryEntrySchema>;
    next_cursor: z.ZodNullable<z.ZodString>;
    complete: z.ZodBoolean;
  },
  z.core.$strict
> = pageSchema(HistoryEntrySchema);
/** `history.page` result. */
export type HistoryPageResult = z.infer<typeof HistoryPageResultSchema>;
