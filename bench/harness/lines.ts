/**
 * Minimal LF line splitting over a byte stream, with no UTF-8 decoding and
 * no JSON work: the measuring harness's own cost must stay near zero.
 *
 * @module
 */

const LF = 0x0a;

/**
 * Splits chunks into LF-terminated lines (the LF excluded). Holds at most one
 * partial line; an empty line is delivered as an empty array.
 *
 * @example
 * ```ts
 * import { LineSplitter } from "./lines.ts";
 * const split = new LineSplitter();
 * const bytes = new TextEncoder().encode("ab\nc");
 * console.assert(split.push(bytes).length === 1);
 * console.assert(split.push(new TextEncoder().encode("d\n"))[0]?.length === 2);
 * ```
 */
export class LineSplitter {
  #partial: Uint8Array | null = null;

  /** Feed a chunk; returns the lines it completes (views valid until the next push). */
  push(chunk: Uint8Array): Uint8Array[] {
    const lines: Uint8Array[] = [];
    let start = 0;
    for (;;) {
      const lf = chunk.indexOf(LF, start);
      if (lf < 0) break;
      if (this.#partial === null) {
        lines.push(chunk.subarray(start, lf));
      } else {
        lines.push(concat(this.#partial, chunk.subarray(start, lf)));
        this.#partial = null;
      }
      start = lf + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.slice(start);
      this.#partial = this.#partial === null ? rest : concat(this.#partial, rest);
    }
    return lines;
  }

  /** Bytes of the held partial line. */
  get partialBytes(): number {
    return this.#partial?.length ?? 0;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Lines of `stream` as byte arrays (LF excluded); a trailing partial line is dropped. */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const splitter = new LineSplitter();
  for await (const chunk of stream) {
    for (const line of splitter.push(chunk)) yield line;
  }
}
