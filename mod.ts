/**
 * magi-tools: give a coding agent your own tools over the
 * `magi-code.local-agent` protocol.
 *
 * @module
 */

export * from "./src/protocol/limits.ts";
export * from "./src/protocol/errors.ts";
