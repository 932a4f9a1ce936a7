/**
 * A string-keyed map for entries that come and go at a high rate: one per
 * request, call or deadline, added and removed within milliseconds, while the
 * map itself lives as long as the connection.
 *
 * Why not a `Map`: V8 stores a `Map`'s (and a `Set`'s) entries in an ordered
 * hash table that it replaces on every rehash, and a replaced table keeps a
 * link to its successor and its old entries (so that live iterators can
 * follow). A long-lived map with this churn therefore forms a chain of tables
 * from the old generation into the young one; the young generation's
 * collector treats every old object as alive, so each table of the chain,
 * with every entry it ever held and everything those entries reach, is copied
 * and then promoted to the old generation, where it dies. With one entry per
 * tool call that promoted every call's objects: the host's old generation,
 * and with it its RSS, grew by about 70 MiB over 100,000 calls until V8's
 * heap limit settled (bench/notes.md, "Memory (issue 18)"). This map keeps
 * its entries as the properties of a null-prototype object, which V8 holds in
 * a plain dictionary: a replaced dictionary links to nothing, so an entry
 * dies young with the call that made it.
 *
 * Keys are strings; values may be anything but `undefined`. Iteration
 * ({@link TransientMap.values}, {@link TransientMap.keys}) returns a snapshot
 * array in insertion order, except that integer-like keys ("0", "17") come
 * first in ascending numeric order (property order in JavaScript).
 *
 * @example
 * ```ts
 * import { TransientMap } from "./transient_map.ts";
 * const pending = new TransientMap<{ method: string }>();
 * pending.set("r1", { method: "status" });
 * console.assert(pending.get("r1")?.method === "status" && pending.size === 1);
 * console.assert(pending.delete("r1") && !pending.has("r1") && pending.size === 0);
 * ```
 *
 * @module
 */

/** A string-keyed map for short-lived entries (see the module documentation). */
export class TransientMap<V> {
  #entries: Record<string, V> = Object.create(null);
  #size = 0;

  /** Entries in the map. */
  get size(): number {
    return this.#size;
  }

  /** The value of `key`, or `undefined`. */
  get(key: string): V | undefined {
    return this.#entries[key];
  }

  /** Whether `key` has a value. */
  has(key: string): boolean {
    return key in this.#entries;
  }

  /** Set the value of `key`; throws `TypeError` for an `undefined` value. */
  set(key: string, value: V): this {
    if (value === undefined) throw new TypeError(`TransientMap value is undefined: ${key}`);
    if (!(key in this.#entries)) this.#size++;
    this.#entries[key] = value;
    return this;
  }

  /** Remove `key`; true when it had a value. */
  delete(key: string): boolean {
    if (!(key in this.#entries)) return false;
    delete this.#entries[key];
    this.#size--;
    return true;
  }

  /** Remove every entry. */
  clear(): void {
    this.#entries = Object.create(null);
    this.#size = 0;
  }

  /** The keys now, as a new array. */
  keys(): string[] {
    return Object.keys(this.#entries);
  }

  /** The values now, as a new array. */
  values(): V[] {
    return Object.values(this.#entries);
  }
}
