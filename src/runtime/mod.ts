/**
 * The runtime adapter: the only module the host, client and CLI use for
 * processes, env, signals, files and standard streams. The npm build swaps
 * it for a Node implementation with the same exports. Both share
 * `src/text/terminal_text.ts`: how text the host did not write reaches a terminal.
 *
 * @module
 */

export * from "./file_lock.ts";
export * from "./process.ts";
export * from "./system.ts";
export * from "./terminal.ts";
export * from "../text/terminal_text.ts";
