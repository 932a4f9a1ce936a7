/**
 * The `magi-code.local-agent` version 1 client.
 *
 * @module
 */

export * from "./client.ts";
export * from "./errors.ts";
export * from "./events.ts";
export * from "./reconcile.ts";
