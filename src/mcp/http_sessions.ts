/**
 * The MCP sessions of `magi-tools mcp --http`: a bounded table that knows which sessions are
 * in use.
 *
 * - A session is **live** while one of its HTTP requests is open: a call or other request
 *   waiting for its answer, or a stream the client keeps open (the SDK client holds a `GET`
 *   stream for as long as it is connected). Otherwise it is **idle**, since the moment its
 *   last request ended.
 * - A session idle for `idleMs` is closed (the MCP SDK client's `close()` sends no `DELETE`,
 *   so an abandoned session would otherwise stay for ever); `idleMs` 0 keeps idle sessions.
 * - At most `max` sessions are open. A new one first closes the session idle the longest;
 *   when every session is live there is no room ({@link HttpSessions.reserve} says so and the
 *   server answers 503 with `Retry-After`): a client that is using its session is never cut off.
 *
 * Closing a session closes its SDK server, which cancels the calls still running in it.
 *
 * @module
 */

import type { Server, WebStandardStreamableHTTPServerTransport } from "./_sdk.ts";
import { type Clock, REAL_CLOCK, type TimerId } from "../async/clock.ts";

/** One open session. */
export interface HttpSession {
  readonly id: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
}

interface Entry extends HttpSession {
  /** Requests of the session open now (answer or stream not finished). */
  open: number;
  /** When the last open request ended (the clock's ms). */
  idleSince: number;
  idleTimer: TimerId | undefined;
}

/** Options of {@link HttpSessions}. */
export interface HttpSessionsOptions {
  /** At most this many sessions (at least 1). */
  readonly max: number;
  /** Close a session idle this long, ms; 0: never. */
  readonly idleMs: number;
  /** Time source (default the real clock). */
  readonly clock?: Clock;
  /** Called when session `id` is closed for being idle `idleMs`. */
  readonly onExpired?: (id: string) => void;
}

/** The session table (see the module doc). */
export class HttpSessions {
  readonly #max: number;
  readonly #idleMs: number;
  readonly #clock: Clock;
  readonly #onExpired: ((id: string) => void) | undefined;
  readonly #entries = new Map<string, Entry>();
  /** Sessions being initialized: counted against `max` before they have an ID. */
  #opening = 0;

  /** A table as `options` says. */
  constructor(options: HttpSessionsOptions) {
    this.#max = Math.max(1, Math.floor(options.max));
    this.#idleMs = Math.max(0, options.idleMs);
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#onExpired = options.onExpired;
  }

  /** Sessions open now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The session `id`, if open. */
  get(id: string): HttpSession | undefined {
    return this.#entries.get(id);
  }

  /**
   * Make room for a session being initialized: true when there is some (closing the session
   * idle the longest when the table is full), false when every session is live. After true,
   * call {@link opened} once the initialization ended, whether a session came of it or not.
   */
  reserve(): boolean {
    if (this.#entries.size + this.#opening >= this.#max) {
      let oldest: Entry | undefined;
      for (const entry of this.#entries.values()) {
        if (entry.open === 0 && (oldest === undefined || entry.idleSince < oldest.idleSince)) {
          oldest = entry;
        }
      }
      if (oldest === undefined) return false;
      void this.close(oldest.id);
    }
    this.#opening++;
    return true;
  }

  /** The initialization {@link reserve} made room for ended. */
  opened(): void {
    this.#opening = Math.max(0, this.#opening - 1);
  }

  /** Add a session that was just initialized (idle until its first request). */
  add(session: HttpSession): void {
    const entry: Entry = {
      ...session,
      open: 0,
      idleSince: this.#clock.now(),
      idleTimer: undefined,
    };
    this.#entries.set(session.id, entry);
    this.#armIdle(entry);
  }

  /**
   * A request of session `id` began; the returned function says it ended (its answer or
   * stream finished). Calling it again does nothing.
   */
  enter(id: string): () => void {
    const entry = this.#entries.get(id);
    if (entry === undefined) return () => {};
    entry.open++;
    this.#clock.clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.open--;
      if (entry.open > 0 || this.#entries.get(id) !== entry) return;
      entry.idleSince = this.#clock.now();
      this.#armIdle(entry);
    };
  }

  /** Close session `id` (its server, so its running calls are cancelled). */
  async close(id: string): Promise<void> {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#entries.delete(id);
    this.#clock.clearTimeout(entry.idleTimer);
    await entry.server.close().catch(() => {});
  }

  /** Close every session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#entries.keys()].map((id) => this.close(id)));
  }

  #armIdle(entry: Entry): void {
    if (this.#idleMs === 0) return;
    this.#clock.clearTimeout(entry.idleTimer);
    entry.idleTimer = this.#clock.setTimeout(() => {
      this.#onExpired?.(entry.id);
      void this.close(entry.id);
    }, this.#idleMs);
  }
}
