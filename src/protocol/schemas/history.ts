/**
 * `history.page` types and their schemas, including the `tool_card` entry kind for clients
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

/** A history entry kind of the base protocol. */
export type BaseHistoryEntryKind = typeof BASE_HISTORY_ENTRY_KINDS[number];
/** A history entry kind with `tool.cards` negotiated. */
export type HistoryEntryKind = typeof HISTORY_ENTRY_KINDS[number];

/** `history.page` params; `cursor` may be omitted (same as null: the first page). */
export type HistoryPageParams = {
  session_id: string;
  revision: string;
  cursor?: string | null;
};

/**
 * A history entry of any kind, including `tool_card` (whose `text` is the card
 * as JSON, possibly split across parts; its content is not validated here).
 */
export type HistoryEntry<K extends string = HistoryEntryKind> = {
  message_id: string;
  kind: K;
  text: string;
  partial: boolean;
  part: number;
  last_part: boolean;
};
/** A base-protocol history entry (clients without `tool.cards`). */
export type BaseHistoryEntry = HistoryEntry<BaseHistoryEntryKind>;

/** `history.page` result, allowing `tool_card` entries. */
export type HistoryPageResult<E = HistoryEntry> = {
  session_id: string;
  revision: string;
  entries: E[];
  next_cursor: string | null;
  complete: boolean;
};
/** `history.page` result for a client that did not negotiate `tool.cards`. */
export type BaseHistoryPageResult = HistoryPageResult<BaseHistoryEntry>;

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

function build() {
  const BaseHistoryEntrySchema = entrySchema(BASE_HISTORY_ENTRY_KINDS);
  const HistoryEntrySchema = entrySchema(HISTORY_ENTRY_KINDS);
  return {
    HistoryPageParamsSchema: z.strictObject({
      session_id: SessionIdSchema,
      revision: WireIdSchema,
      cursor: z.exactOptional(WireIdSchema.nullable()),
    }),
    BaseHistoryEntrySchema,
    HistoryEntrySchema,
    BaseHistoryPageResultSchema: pageSchema(BaseHistoryEntrySchema),
    HistoryPageResultSchema: pageSchema(HistoryEntrySchema),
  };
}

/** The schemas with the types zod infers (what the type tests compare). */
export type HistorySchemas = ReturnType<typeof build>;
const built: HistorySchemas = build();

/** `history.page` params. */
export const HistoryPageParamsSchema: z.ZodType<HistoryPageParams> = built.HistoryPageParamsSchema;
/** A base-protocol history entry. */
export const BaseHistoryEntrySchema: z.ZodType<BaseHistoryEntry> = built.BaseHistoryEntrySchema;
/** A history entry of any kind. */
export const HistoryEntrySchema: z.ZodType<HistoryEntry> = built.HistoryEntrySchema;
/** `history.page` result without `tool_card` entries. */
export const BaseHistoryPageResultSchema: z.ZodType<BaseHistoryPageResult> =
  built.BaseHistoryPageResultSchema;
/**
 * `history.page` result allowing `tool_card` entries. This is the registry's
 * schema; a client that did not negotiate `tool.cards` must use
 * {@link BaseHistoryPageResultSchema} (or reject `tool_card` itself).
 */
export const HistoryPageResultSchema: z.ZodType<HistoryPageResult> = built.HistoryPageResultSchema;
