/**
 * Assistant content: the per-run budget (8 MiB, 512 segments; exceeding either fails the run
 * with `content_limit`). Chunking at code-point boundaries is `src/text/utf8.ts`' `splitUtf8`.
 *
 * @module
 */

import { RUN_CONTENT_BYTES, RUN_CONTENT_SEGMENTS } from "../../protocol/limits.ts";
import { utf8ByteLength } from "../../protocol/utf8.ts";

/** The assistant content budget of one run. */
export class ContentBudget {
  #bytes = 0;
  #segments = 0;

  /** Admit one more segment of `text`; false when it would exceed the run's bounds. */
  admit(text: string): boolean {
    const bytes = utf8ByteLength(text);
    if (this.#segments + 1 > RUN_CONTENT_SEGMENTS) return false;
    if (this.#bytes + bytes > RUN_CONTENT_BYTES) return false;
    this.#segments++;
    this.#bytes += bytes;
    return true;
  }
}
