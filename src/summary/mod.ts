/**
 * The host's NDJSON summary records and their writer (`docs/summaries.md`).
 *
 * @module
 */

export * from "./records.ts";
export * from "./writer.ts";
