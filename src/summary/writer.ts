/**
 * The NDJSON summary writer: stamps `ts` and `v` on each record and writes
 * one line per record through an ordered queue. `emit()` never waits, so
 * tool calls never wait on summary output. Records emitted close together go
 * out in one write: a record waits at most `lingerMs` (default
 * {@link SUMMARY_LINGER_MS}) for others, or until {@link SUMMARY_BATCH_CHARS}
 * are queued, and records emitted while a write is in flight go out in the
 * next one. {@link SummaryWriter.flush} writes at once.
 *
 * Records are built by typed code, so they are not re-validated in
 * production; with `selfCheck` (default: `MAGI_TOOLS_SELF_CHECK=1` in the
 * environment, which the test suites set) every record is validated against
 * its zod schema before it is queued (the schemas are built on the first
 * checked record, so a production run does not build them).
 *
 * Lines are `JSON.stringify` with DEL and the C1 controls (U+007F–U+009F)
 * escaped as well (`terminalSafeJson`): the same JSON, and a line that lands
 * on a terminal holds no raw control character a terminal could act on.
 *
 * @module
 */

import { type Clock, REAL_CLOCK, type TimerId } from "../async/clock.ts";
import { getEnv, terminalSafeJson } from "../runtime/mod.ts";
import { recordSchemas } from "./_record_schemas.ts";
import { SUMMARY_VERSION } from "./constants.ts";
import type { SummaryInput, SummaryRecord } from "./records.ts";

/** Where summary lines go (e.g. stdout). */
export type SummarySink = (bytes: Uint8Array) => Promise<void>;

/** Options of {@link SummaryWriter}. */
export interface SummaryWriterOptions {
  /** Clock for `ts`; default `() => new Date()`. */
  now?: () => Date;
  /** Called once when the sink fails; later records are discarded. */
  onError?: (error: unknown) => void;
  /** How long a record may wait for others to share its write, ms; default {@link SUMMARY_LINGER_MS}. */
  lingerMs?: number;
  /** The timer of `lingerMs`; default {@link REAL_CLOCK}. */
  clock?: Clock;
  /**
   * Validate every record against its schema (a host self-check; throws
   * TypeError on a mismatch). Default: {@link selfCheckFromEnv}.
   */
  selfCheck?: boolean;
}

/**
 * Default wait of a summary record for others to share its write, ms: short
 * for a reader, long enough to batch the records of many fast tool calls.
 */
export const SUMMARY_LINGER_MS = 5;

/** Queued characters at which the records are written without waiting longer. */
export const SUMMARY_BATCH_CHARS = 64 * 1024;

/** Environment variable that turns on the self-checks (`1`). */
export const SELF_CHECK_ENV = "MAGI_TOOLS_SELF_CHECK";

/**
 * Whether `MAGI_TOOLS_SELF_CHECK=1` in `env` (default: the process's environment; false when the
 * variable cannot be read).
 */
export function selfCheckFromEnv(env: (name: string) => string | undefined = getEnv): boolean {
  try {
    return env(SELF_CHECK_ENV) === "1";
  } catch {
    return false; // No permission to read it: production defaults.
  }
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
  #selfCheck: boolean;
  #lingerMs: number;
  #clock: Clock;
  /** Lines queued and not yet handed to the sink. */
  #queued = "";
  /** The write loop while it runs. */
  #pump: Promise<void> | null = null;
  /** Whether the write loop writes until nothing is queued ({@link SummaryWriter.flush}). */
  #draining = false;
  /** Starts the write loop on the event loop's next turn. */
  #timer: TimerId | undefined;
  #failed = false;
  #failure = new AbortController();
  #observers = new Set<(record: SummaryRecord) => void>();
  /** The last `ts` written and its epoch ms: records of the same millisecond share the text. */
  #tsMs = NaN;
  #ts = "";
  #start = () => {
    this.#timer = undefined;
    this.#writeNow();
  };

  /** Create a writer over `sink`. */
  constructor(sink: SummarySink, options: SummaryWriterOptions = {}) {
    this.#sink = sink;
    this.#now = options.now ?? (() => new Date());
    this.#onError = options.onError;
    this.#selfCheck = options.selfCheck ?? selfCheckFromEnv();
    this.#lingerMs = options.lingerMs ?? SUMMARY_LINGER_MS;
    this.#clock = options.clock ?? REAL_CLOCK;
    if (!Number.isFinite(this.#lingerMs) || this.#lingerMs < 0) {
      throw new RangeError(`Summary linger must be a non-negative number: ${this.#lingerMs}`);
    }
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
   * Stamp and queue one record; returns it as written. With `selfCheck`,
   * throws TypeError when the record does not match its schema (a host bug,
   * never input).
   */
  emit(input: SummaryInput): SummaryRecord {
    // `type`, `ts` and `v` lead each line (readers match on a `{"type":"…"` prefix).
    const record = Object.assign(
      { type: input.type, ts: this.#timestamp(), v: SUMMARY_VERSION },
      input,
    ) as SummaryRecord;
    if (this.#selfCheck) {
      // Built on the first checked record: a run without the self-check never builds them.
      const parsed = recordSchemas().SummaryRecordSchema.safeParse(record);
      if (!parsed.success) {
        throw new TypeError(`Invalid summary record: ${input.type}: ${parsed.error.message}`);
      }
    }
    for (const observer of this.#observers) observer(record);
    if (this.#failed) return record;
    // DEL and C1 controls escaped too: a line on a terminal holds no raw control character.
    this.#queued += terminalSafeJson(record) + "\n";
    // During a write it goes out after that write (see #write).
    if (this.#pump !== null) return record;
    if (this.#queued.length >= SUMMARY_BATCH_CHARS) this.#writeNow();
    else if (this.#timer === undefined) {
      this.#timer = this.#clock.setTimeout(this.#start, this.#lingerMs);
    }
    return record;
  }

  /** `ts` of a record emitted now. */
  #timestamp(): string {
    const now = this.#now();
    const ms = now.getTime();
    // An invalid date (NaN) never matches, and its toISOString throws as before.
    if (ms !== this.#tsMs) {
      this.#ts = now.toISOString();
      this.#tsMs = ms;
    }
    return this.#ts;
  }

  /**
   * Call `observer` with every record emitted from now on (also after the sink
   * failed), synchronously inside {@link SummaryWriter.emit}; returns a function
   * that stops the calls. An observer must not throw.
   *
   * @example
   * ```ts
   * import { SummaryWriter } from "./writer.ts";
   * const writer = new SummaryWriter(async () => {});
   * const types: string[] = [];
   * const stop = writer.observe((record) => types.push(record.type));
   * writer.emit({ type: "session", session_id: "s1", durable: false, resumed: false });
   * stop();
   * console.assert(types.join() === "session");
   * ```
   */
  observe(observer: (record: SummaryRecord) => void): () => void {
    const own = (record: SummaryRecord) => observer(record);
    this.#observers.add(own);
    return () => this.#observers.delete(own);
  }

  /** Write the queued records now; resolves when every one was written (or the sink failed). */
  flush(): Promise<void> {
    this.#draining = true;
    this.#writeNow();
    if (this.#pump === null) this.#draining = false;
    return this.#pump ?? Promise.resolve();
  }

  /** Start writing the queued records without waiting for the linger. */
  #writeNow(): void {
    if (this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#queued !== "") this.#pump ??= this.#write();
  }

  /**
   * Write the queued records. Records queued during a write go out in the next one at once when
   * {@link SummaryWriter.flush} asked for all or they reach {@link SUMMARY_BATCH_CHARS};
   * otherwise they wait for the linger again, as the first did. Writing them right after each
   * write cost one write a tool call under a steady stream of calls (each write of stdout is a
   * hand-off to another thread; bench/notes.md, "Summary lines: one write per linger").
   */
  async #write(): Promise<void> {
    try {
      while (this.#queued !== "" && !this.#failed) {
        const bytes = encoder.encode(this.#queued);
        this.#queued = "";
        try {
          await this.#sink(bytes);
        } catch (error) {
          this.#failed = true;
          this.#queued = "";
          this.#onError?.(error);
          this.#failure.abort(error);
        }
        if (!this.#draining && this.#queued.length < SUMMARY_BATCH_CHARS) break;
      }
    } finally {
      this.#pump = null;
      this.#draining = false;
      if (this.#queued !== "" && this.#timer === undefined) {
        this.#timer = this.#clock.setTimeout(this.#start, this.#lingerMs);
      }
    }
  }
}
