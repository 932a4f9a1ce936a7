/**
 * The result texts every peer returns, so the host, the MCP server and the
 * fake backend agree on sizes.
 *
 * @module
 */

/** Result sizes by benchmark tool name, UTF-8 bytes (ASCII text). */
export const RESULT_BYTES = Object.freeze(
  {
    trivial: 5,
    blob_60k: 60 * 1024,
    blob_1m: 1024 * 1024,
  } as const,
);

/** A benchmark tool name. */
export type BenchToolName = keyof typeof RESULT_BYTES;

/**
 * ASCII text of exactly `bytes` bytes (`"hello"` for 5, else a repeated
 * pattern); no character needs JSON escaping.
 *
 * @example
 * ```ts
 * import { payloadText } from "./payloads.ts";
 * console.assert(payloadText(5) === "hello" && payloadText(1000).length === 1000);
 * ```
 */
export function payloadText(bytes: number): string {
  if (bytes === 5) return "hello";
  const unit = "abcdefghijklmnopqrstuvwxyz0123456789 ";
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/** A generated tool's description, the same for the host's and MCP's 32-tool sets. */
export function generatedDescription(index: number): string {
  return `Benchmark tool number ${index}: looks up one record by key and returns it as text.`;
}
