/**
 * Results over a tool's own `maxResultBytes`: cut with a visible marker (`truncate`) or written
 * whole to a file with a text naming it (`spill`). The executor decides when (the result text is
 * over the tool's bound but within the protocol's `result_bytes`); this file builds the text.
 *
 * - `truncate`: the first two thirds of the budget from the head, the rest from the tail, and
 *   between them a marker line saying how many bytes were left out and how to get the rest.
 * - `spill`: the whole text goes to `<cwd>/.magi-tools/results/<call id>-<random>.txt` (a new
 *   file, mode 0600; the directory is the host's own state directory, which no process tool may
 *   write), and the model gets a text naming the file (absolute path) and its size, then the
 *   head of the result, all within the bound.
 *
 * @example
 * ```ts
 * import { truncateResult } from "./overflow.ts";
 * const cut = truncateResult("x".repeat(5000), 2000);
 * console.assert(new TextEncoder().encode(cut.text).length <= 2000 && cut.text.includes("bytes left out"));
 * ```
 *
 * @module
 */

import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Where spilled results go, relative to the host's working directory. */
export const SPILL_DIR = join(".magi-tools", "results");

/** What the model gets instead of a result over the tool's bound. */
export interface CutResult {
  /** The text sent (at most the bound, UTF-8 bytes). */
  readonly text: string;
  /** UTF-8 bytes of the whole result. */
  readonly bytes: number;
  /** Bytes of the result the text holds (head and tail). */
  readonly kept: number;
  /** The file holding the whole result (`spill`), absolute. */
  readonly file?: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `text`'s head and tail within `maxBytes`, with a marker saying what was left out. */
export function truncateResult(text: string, maxBytes: number): CutResult {
  const all = encoder.encode(text);
  const marker = (cut: number) =>
    `\n\n[… ${cut} of ${all.length} bytes left out here: the result is over this tool's limit of ${maxBytes} bytes. ` +
    `To get the rest, call the tool again with narrower arguments (a smaller range, a filter, a page) …]\n\n`;
  // The marker's length depends on the number in it: measure with the widest.
  const budget = Math.max(0, maxBytes - encoder.encode(marker(all.length)).length);
  const headEnd = boundary(all, Math.floor((budget * 2) / 3));
  const tailStart = boundaryUp(all, all.length - (budget - headEnd));
  const kept = headEnd + (all.length - tailStart);
  const out = decoder.decode(all.subarray(0, headEnd)) + marker(all.length - kept) +
    decoder.decode(all.subarray(tailStart));
  return { text: out, bytes: all.length, kept };
}

/** Identifies one spill for {@link spillResult}. */
export interface SpillTarget {
  /** The host's working directory. */
  readonly cwd: string;
  /** The call's id (its unsafe characters replaced in the file name). */
  readonly callId: string;
}

/**
 * Write `text` to a new file under {@link SPILL_DIR} and return the text naming it and its
 * head, within `maxBytes`.
 *
 * @throws when the directory or file cannot be written (the caller answers an error).
 */
export async function spillResult(
  text: string,
  maxBytes: number,
  target: SpillTarget,
): Promise<CutResult> {
  const all = encoder.encode(text);
  const dir = join(target.cwd, SPILL_DIR);
  await mkdir(dir, { recursive: true });
  const id = target.callId.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "_").slice(0, 80);
  const file = join(dir, `${id}-${crypto.randomUUID().slice(0, 8)}.txt`);
  await writeFile(file, all, { flag: "wx", mode: 0o600 });
  const intro = (head: number) =>
    `[The result is ${all.length} bytes, over this tool's limit of ${maxBytes} bytes: ` +
    `the whole result is in the file ${file}. Read that file for the rest. ` +
    `Its first ${head} bytes follow.]\n\n`;
  const budget = Math.max(0, maxBytes - encoder.encode(intro(all.length)).length);
  const headEnd = boundary(all, budget);
  return {
    text: intro(headEnd) + decoder.decode(all.subarray(0, headEnd)),
    bytes: all.length,
    kept: headEnd,
    file,
  };
}

/** The largest code-point boundary at or below `at`. */
function boundary(bytes: Uint8Array, at: number): number {
  let i = Math.max(0, Math.min(at, bytes.length));
  while (i > 0 && i < bytes.length && (bytes[i]! & 0xc0) === 0x80) i--;
  return i;
}

/** The smallest code-point boundary at or above `at`. */
function boundaryUp(bytes: Uint8Array, at: number): number {
  let i = Math.max(0, Math.min(at, bytes.length));
  while (i < bytes.length && (bytes[i]! & 0xc0) === 0x80) i++;
  return i;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "image/svg+xml": "svg",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/ogg": "ogg",
};

/**
 * Write an image's or audio's `bytes` to a new file under {@link SPILL_DIR} (named after the
 * call, extension from `mimeType`, else `.bin`); returns its absolute path.
 */
export async function saveMedia(
  bytes: Uint8Array,
  mimeType: string,
  target: SpillTarget,
): Promise<string> {
  const dir = join(target.cwd, SPILL_DIR);
  await mkdir(dir, { recursive: true });
  const id = target.callId.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "_").slice(0, 80);
  const file = join(
    dir,
    `${id}-${crypto.randomUUID().slice(0, 8)}.${EXTENSIONS[mimeType] ?? "bin"}`,
  );
  await writeFile(file, bytes, { flag: "wx", mode: 0o600 });
  return file;
}
