/**
 * The session attachment of one child: lazy handles, durable files and writer leases.
 *
 * `create` allocates an attached lazy handle (no file). The first durable append takes
 * the writer lease and creates the JSONL. `open` attaches an exact ID: a lazy handle of
 * this child, or a stored file that validates. Both are prepared first and attached by one
 * synchronous commit, so a failed, cancelled or shut-down open leaves the previous
 * attachment intact (a lease taken for it is released); a successful switch releases the
 * previous lease afterwards.
 *
 * @module
 */

import type { ErrorCode } from "../../protocol/errors.ts";
import { acquireLease, type Lease, type LeaseTable } from "./leases.ts";
import { readStoredSession, SessionFile, type StoredRecord } from "./session_store.ts";

/** The attached session. */
export interface Attachment {
  /** Session ID. */
  readonly id: string;
  /** Whether its JSONL exists. */
  durable: boolean;
  /** Append handle. */
  readonly file: SessionFile;
  /** Writer lease, once durable. */
  lease: Lease | null;
}

/** Result of create/open on the wire. */
export interface AttachResult {
  session_id: string;
  durable: boolean;
  revision: string;
  notices: string[];
}

/**
 * A session read and leased but not attached yet. Nothing is visible until {@link commit}:
 * a cancelled or shut-down open discards it, so the previous attachment stays intact.
 */
export interface PendingAttach {
  /** The wire result once committed. */
  readonly result: AttachResult;
  /** The session's last `session_preferences` record, or null. */
  readonly preferences: StoredRecord | null;
  /**
   * Attach it now — synchronously, so a caller that checked for cancellation in the same
   * tick cannot be overtaken — and release the previous attachment's lease (the promise).
   */
  commit(): Promise<void>;
  /** Drop it: release the lease taken for it (idempotent; no-op after commit). */
  discard(): Promise<void>;
}

/** Attachment state and storage for one child. */
export class Sessions {
  readonly #dir: string;
  readonly #cwd: string;
  readonly #instanceId: string;
  readonly #leases: LeaseTable;
  readonly #lazy = new Set<string>();
  #attached: Attachment | null = null;

  /** Manage sessions under `<mcHome>/sessions` for canonical `cwd`; leases go to `leases`. */
  constructor(options: { mcHome: string; cwd: string; instanceId: string; leases: LeaseTable }) {
    this.#dir = `${options.mcHome}/sessions`;
    this.#cwd = options.cwd;
    this.#instanceId = options.instanceId;
    this.#leases = options.leases;
  }

  /** The current attachment, if any. */
  get attached(): Attachment | null {
    return this.#attached;
  }

  /** The sessions directory. */
  get dir(): string {
    return this.#dir;
  }

  /**
   * Allocate a lazy handle, attached by {@link PendingAttach.commit}.
   */
  prepareCreate(): PendingAttach {
    const id = crypto.randomUUID();
    const attachment = this.#attachment(id, { durable: false, lease: null });
    const result = { session_id: id, durable: false, revision: attachment.file.revision };
    return this.#pending(attachment, { ...result, notices: [] }, null, null, () => {
      this.#lazy.add(id);
    });
  }

  /**
   * Read and validate exact `id` and take its writer lease, without attaching: the caller
   * attaches with {@link PendingAttach.commit} or drops it with {@link PendingAttach.discard}.
   * A failure (or `signal` aborting: `operation_cancelled`) leaves the previous attachment
   * and every lease as they were.
   */
  async prepareOpen(
    id: string,
    signal?: AbortSignal,
  ): Promise<{ ok: true; pending: PendingAttach } | { ok: false; code: ErrorCode }> {
    const current = this.#attached;
    const path = this.#path(id);
    if (this.#lazy.has(id) && !(await exists(path))) {
      if (signal?.aborted) return { ok: false, code: "operation_cancelled" };
      // Reopening gives a fresh attachment (and revision) that keeps any lease already held.
      const lease = current?.id === id ? current.lease : null;
      const attachment = this.#attachment(id, { durable: false, lease });
      const result = { session_id: id, durable: false, revision: attachment.file.revision };
      return { ok: true, pending: this.#pending(attachment, { ...result, notices: [] }, null) };
    }
    const read = await readStoredSession(path, { sessionId: id, cwd: this.#cwd }, { signal });
    if (!read.ok) return read;
    if (signal?.aborted) return { ok: false, code: "operation_cancelled" };
    let lease = current?.id === id ? current.lease : null;
    let taken: Lease | null = null;
    if (lease === null) {
      const acquired = await acquireLease(this.#lockPath(id), this.#instanceId, this.#leases);
      if (!acquired.ok) return acquired;
      lease = taken = acquired.lease;
    }
    if (signal?.aborted) {
      await taken?.release();
      return { ok: false, code: "operation_cancelled" };
    }
    const { lines, bytes, notices, records, text } = read.stored;
    const preferences = records.findLast((r) => r.type === "session_preferences") ?? null;
    const attachment = this.#attachment(id, { durable: true, lease, lines, bytes, text });
    const result = { session_id: id, durable: true, revision: attachment.file.revision, notices };
    return { ok: true, pending: this.#pending(attachment, result, preferences, taken) };
  }

  /** Make `attachment` durable: take its writer lease. False when the lease is unavailable. */
  async ensureWritable(attachment: Attachment): Promise<boolean> {
    if (attachment.lease !== null) return true;
    const acquired = await acquireLease(
      this.#lockPath(attachment.id),
      this.#instanceId,
      this.#leases,
    );
    if (!acquired.ok) return false;
    attachment.lease = acquired.lease;
    return true;
  }

  /** Mark `attachment` durable after its first append. */
  markDurable(attachment: Attachment): void {
    attachment.durable = true;
    this.#lazy.delete(attachment.id);
  }

  /** Detach and release the writer lease (shutdown cleanup). */
  async releaseAll(): Promise<void> {
    const current = this.#attached;
    this.#attached = null;
    await current?.lease?.release();
  }

  #pending(
    attachment: Attachment,
    result: AttachResult,
    preferences: StoredRecord | null,
    taken: Lease | null = null,
    onCommit: () => void = () => {},
  ): PendingAttach {
    let state: "pending" | "committed" | "discarded" = "pending";
    return {
      result,
      preferences,
      commit: () => {
        if (state !== "pending") throw new Error(`Attachment already ${state}`);
        state = "committed";
        onCommit();
        return this.#switchTo(attachment);
      },
      discard: async () => {
        if (state !== "pending") return;
        state = "discarded";
        await taken?.release();
      },
    };
  }

  #attachment(
    id: string,
    state: { durable: boolean; lease: Lease | null; lines?: number; bytes?: number; text?: string },
  ): Attachment {
    const { durable, lease, ...content } = state;
    const file = new SessionFile(this.#path(id), { sessionId: id, cwd: this.#cwd, ...content });
    return { id, durable, file, lease };
  }

  /** Attach `next` at once (synchronously); resolves once the previous lease is released. */
  async #switchTo(next: Attachment): Promise<void> {
    const previous = this.#attached;
    this.#attached = next;
    if (previous !== null && previous !== next && previous.lease !== next.lease) {
      await previous.lease?.release();
    }
  }

  #path(id: string): string {
    return `${this.#dir}/${id}.jsonl`;
  }

  #lockPath(id: string): string {
    return `${this.#dir}/${id}.lock`;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The attachment a request addresses by `sessionId`: `session_missing` when nothing is
 * attached, `stale_session` when another session is.
 */
export function attachmentOf(
  sessions: Sessions | null,
  sessionId: unknown,
): Attachment | "session_missing" | "stale_session" {
  const attached = sessions?.attached ?? null;
  if (attached === null) return "session_missing";
  if (attached.id !== sessionId) return "stale_session";
  return attached;
}
