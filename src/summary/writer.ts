/**
 * The NDJSON summary writer: validates each record, stamps `ts` and `v`, and
 * writes one line per record through an ordered queue. `emit()` never waits,
 * so tool calls never wait on summary output.
 *
 * @module
 */

import {
  SUMMARY_VERSION,
  type SummaryInput,
  type SummaryRecord,
  SummaryRecordSchema,
} from "./records.ts";

/** Where summary lines go (e.g. stdout). */
export type SummarySink = (bytes: Uint8Array) => Promise<void>;

/** Options of {@link SummaryWriter}. */
export interface SummaryWriterOptions {
  /** Clock for `ts`; default `() => new Date()`. */
  now?: () => Date;
  /** Called once when the sink fails; later records are discarded. */
  onError?: (error: unknown) => void;
}

const encoder = new TextEncoder();

/**
 * Writes summary records as NDJSON.
 *
 * @example
 * ```ts
 * import { SummaryWriter } from "./writer.ts";
 * const lines: string[] = [];
 * const writer = new SummaryWriter(async (b) => {
 *   lines.push(new TextDecoder().decode(b));
 * });
 * writer.emit({ type: "session", session_id: "s1", durable: false, resumed: false });
 * await writer.flush();
 * console.assert(JSON.parse(lines[0]!).v === 1);
 * ```
 */
export class SummaryWriter {
  #sink: SummarySink;
  #now: () => Date;
  #onError: ((error: unknown) => void) | undefined;
  #tail: Promise<void> = Promise.resolve();
  #failed = false;
  #failure = new AbortController();

  /** Create a writer over `sink`. */
  constructor(sink: SummarySink, options: SummaryWriterOptions = {}) {
    this.#sink = sink;
    this.#now = options.now ?? (() => new Date());
    this.#onError = options.onError;
  }

  /** Whether the sink failed (later records are discarded). */
  get failed(): boolean {
    return this.#failed;
  }

  /** Aborted (with the sink's error) when the sink fails. */
  get failure(): AbortSignal {
    return this.#failure.signal;
  }

  /**
   * Validate and queue one record; returns it as written. Throws TypeError
   * when the record does not match its schema (a host bug, never input).
   */
  emit(input: SummaryInput): SummaryRecord {
    const candidate = { ...input, ts: this.#now().toISOString(), v: SUMMARY_VERSION };
    const parsed = SummaryRecordSchema.safeParse(candidate);
    if (!parsed.success) {
      throw new TypeError(`Invalid summary record: ${input.type}: ${parsed.error.message}`);
    }
    const record = parsed.data;
    const bytes = encoder.encode(JSON.stringify(record) + "\n");
    this.#tail = this.#tail.then(async () => {
      if (this.#failed) return;
      try {
        await this.#sink(bytes);
      } catch (error) {
        this.#failed = true;
        this.#onError?.(error);
        this.#failure.abort(error);
      }
    });
    return record;
  }

  /** Wait until every queued record was written (or the sink failed). */
  flush(): Promise<void> {
    return this.#tail;
  }
}
