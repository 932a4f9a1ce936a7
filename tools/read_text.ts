/**
 * `read_text`: read part of a UTF-8 text file in the working directory.
 *
 * @module
 */

import { open } from "node:fs/promises";
import { z } from "zod";
import { defineTool } from "@magi/tools";
import { resolveInside } from "./_paths.ts";

/** Default and largest slice, bytes. */
const MAX_LENGTH = 16_384;

export default defineTool({
  name: "read_text",
  description: "Read a UTF-8 text file inside the working directory. `path` is relative to " +
    "the working directory; `offset` and `length` are in bytes (length at most 16384). The " +
    "slice is trimmed to whole characters (at least one is returned); the result has `bytes` read and `total_bytes`, so " +
    "read the next slice at offset + bytes until offset + bytes equals total_bytes.",
  input: z.strictObject({
    path: z.string().min(1).max(4096).describe("File path relative to the working directory"),
    offset: z.int().min(0).default(0).describe("Byte offset to start at"),
    length: z.int().min(1).max(MAX_LENGTH).default(MAX_LENGTH).describe("Bytes to read"),
  }),
  effect: "read",
  timeoutMs: 10_000,
  permissions: { read: ["."] },
  async run({ path, offset, length }, ctx) {
    const target = await resolveInside(ctx.cwd, path);
    const file = await open(target.real, "r");
    try {
      const info = await file.stat();
      if (!info.isFile()) throw new Error(`Not a regular file: ${path}`);
      const total = info.size;
      const start = Math.min(offset, total);
      // Read 3 extra bytes so a character cut by the end can be completed or dropped.
      const buffer = new Uint8Array(Math.min(length + 3, total - start));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, start);
      ctx.signal.throwIfAborted();
      const raw = buffer.subarray(0, bytesRead);
      const skip = leadingContinuationBytes(raw);
      let end = characterEnd(raw, Math.min(length, raw.length));
      // Never answer with nothing while bytes remain: return at least one whole character.
      if (end <= skip && skip < raw.length) {
        end = Math.min(raw.length, skip + sequenceLength(raw, skip));
      }
      const slice = raw.subarray(skip, Math.max(skip, end));
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(slice);
      } catch {
        throw new Error(`File is not valid UTF-8 text: ${path}`);
      }
      return {
        path: target.relative,
        offset: start + skip,
        bytes: slice.length,
        total_bytes: total,
        text,
      };
    } finally {
      await file.close();
    }
  },
});

/** Continuation bytes (10xxxxxx) at the start: the tail of a character begun before `offset`. */
function leadingContinuationBytes(bytes: Uint8Array): number {
  let count = 0;
  while (count < bytes.length && count < 3 && ((bytes[count] as number) & 0xc0) === 0x80) count++;
  return count;
}

/** Bytes of the UTF-8 sequence whose lead byte is at `index` (1 for an invalid lead). */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const lead = bytes[index] as number;
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/** The largest index ≤ `limit` that does not cut a character, given `bytes` may extend past it. */
function characterEnd(bytes: Uint8Array, limit: number): number {
  if (limit >= bytes.length) return bytes.length;
  let end = limit;
  // Back up over continuation bytes to the lead byte of the character crossing `limit`.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return end;
}
