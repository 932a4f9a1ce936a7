/**
 * Session writer leases: a lock file `<id>.lock` beside the JSONL, created exclusively and
 * holding `{"pid":…, "instance_id":…}`. A second backend child gets `session_busy`, and so
 * does a second connection served in the same process (the lock names a live pid). Each
 * connection records its leases in its own {@link LeaseTable}.
 *
 * Stale recovery: when the lock names a pid that no longer exists (checked through
 * `/proc/<pid>` on Linux), the lock is removed and creation retried once. Elsewhere, and
 * for unreadable lock content, the lease is conservatively treated as held.
 *
 * @module
 */

/**
 * The leases one connection holds, for release when it ends (a child releases them at exit;
 * a host serving in-process releases them when the connection is disposed).
 */
export class LeaseTable {
  readonly #held = new Set<string>();

  /** Lock file paths still held. */
  get held(): ReadonlySet<string> {
    return this.#held;
  }

  /** Record `path` as held. */
  add(path: string): void {
    this.#held.add(path);
  }

  /** Forget `path` (released). */
  delete(path: string): void {
    this.#held.delete(path);
  }

  /** Remove every lock file still held (the end of the connection). */
  releaseAllSync(): void {
    for (const path of this.#held) {
      try {
        Deno.removeSync(path);
      } catch {
        // Already gone: nothing to release.
      }
    }
    this.#held.clear();
  }
}

/** A held lease. */
export class Lease {
  readonly #path: string;
  readonly #table: LeaseTable;
  #held = true;

  /** Wrap a lock file this connection created, recorded in `table`. */
  constructor(path: string, table: LeaseTable) {
    this.#path = path;
    this.#table = table;
    table.add(path);
  }

  /** Lock file path. */
  get path(): string {
    return this.#path;
  }

  /** Remove the lock file (idempotent). */
  async release(): Promise<void> {
    if (!this.#held) return;
    this.#held = false;
    this.#table.delete(this.#path);
    await Deno.remove(this.#path).catch(() => {});
  }
}

/** Outcome of {@link acquireLease}. */
export type LeaseResult = { ok: true; lease: Lease } | {
  ok: false;
  code: "session_busy" | "session_invalid";
};

/**
 * Create the lock file at `path` exclusively, recovering a dead pid's lock once; the lease is
 * recorded in the connection's `table`, which releases it when the connection ends.
 */
export async function acquireLease(
  path: string,
  instanceId: string,
  table: LeaseTable,
): Promise<LeaseResult> {
  const body = JSON.stringify({ pid: Deno.pid, instance_id: instanceId }) + "\n";
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await Deno.writeTextFile(path, body, { createNew: true });
      return { ok: true, lease: new Lease(path, table) };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) {
        return { ok: false, code: "session_invalid" };
      }
    }
    if (attempt > 0 || !(await isStale(path))) break;
    await Deno.remove(path).catch(() => {});
  }
  return { ok: false, code: "session_busy" };
}

/** Whether the lock at `path` names a process that no longer exists. */
export async function isStale(path: string): Promise<boolean> {
  let owner: unknown;
  try {
    owner = JSON.parse(await Deno.readTextFile(path));
  } catch {
    return false;
  }
  if (typeof owner !== "object" || owner === null) return false;
  const pid = (owner as { pid?: unknown }).pid;
  if (!Number.isInteger(pid) || (pid as number) <= 0 || pid === Deno.pid) return false;
  if (Deno.build.os !== "linux") return false;
  try {
    await Deno.stat(`/proc/${pid}`);
    return false;
  } catch {
    return true;
  }
}
