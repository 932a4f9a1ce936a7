/**
 * The runtime adapter for Node.js: the same exports as `../mod.ts` (Deno's),
 * implemented with `node:*` modules. The npm build (`npm-build.ts`) maps
 * `src/runtime/mod.ts` to this file; nothing imports it directly.
 *
 * @module
 */

export * from "./file_lock.ts";
export * from "./process.ts";
export * from "./system.ts";
export * from "./terminal.ts";
export * from "../../text/terminal_text.ts";
