/**
 * One answer line at a time from a byte source (a terminal in cooked mode):
 * what arrives after the first line feed is kept for the next question, so
 * answers typed ahead are not lost.
 *
 * @example
 * ```ts
 * import { LineReader } from "./_line_reader.ts";
 * const chunks = [new TextEncoder().encode("y\r\nn\n")];
 * const reader = new LineReader(() => Promise.resolve(chunks.shift() ?? null));
 * console.assert((await reader.next()) === "y" && (await reader.next()) === "n");
 * console.assert((await reader.next()) === null);
 * ```
 *
 * @module
 */

/** Reads lines (without CR LF) from `read`, which resolves null at end of input. */
export class LineReader {
  #read: () => Promise<Uint8Array | null>;
  #decoder = new TextDecoder();
  #pending = "";
  #ended = false;

  /** Read chunks with `read` (null: end of input). */
  constructor(read: () => Promise<Uint8Array | null>) {
    this.#read = read;
  }

  /** The next line; at the end of input what is left (null when nothing). */
  async next(): Promise<string | null> {
    for (;;) {
      const lf = this.#pending.indexOf("\n");
      if (lf >= 0) {
        const line = this.#pending.slice(0, lf).replace(/\r$/, "");
        this.#pending = this.#pending.slice(lf + 1);
        return line;
      }
      const chunk = this.#ended ? null : await this.#read();
      if (chunk === null) {
        this.#ended = true;
        const rest = this.#pending + this.#decoder.decode();
        this.#pending = "";
        return rest === "" ? null : rest;
      }
      this.#pending += this.#decoder.decode(chunk, { stream: true });
    }
  }
}
