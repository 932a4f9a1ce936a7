/**
 * Text helpers below the runtime: UTF-8-bounded truncation and zod issue lists for text the model
 * reads (`bounded.ts`), and how text the host did not write reaches a terminal
 * (`terminal_text.ts`, shared by both runtime adapters). Imports nothing but `src/protocol/`.
 *
 * @module
 */

export { formatIssues, type IssueLike, truncateText } from "./bounded.ts";
export { terminalSafeJson, terminalText } from "./terminal_text.ts";
