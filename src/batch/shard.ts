/**
 * Shards: `--shard K/N` keeps the items whose stable hash of `id` falls in
 * share K of N (1-based), so N copies of one command — a CI matrix, a
 * Kubernetes Indexed Job — cover the input exactly once between them,
 * whatever the machine, runtime or order of the lines.
 *
 * The hash is 32-bit FNV-1a over the id's UTF-8 bytes; the share is the hash
 * modulo N. It never changes between versions: changing it would make a
 * resumed sharded batch run other items.
 *
 * @example
 * ```ts
 * import { inShard, parseShard } from "./shard.ts";
 * const shard = parseShard("2/3");
 * const mine = ["a", "b", "c", "d"].filter((id) => inShard(id, shard));
 * console.assert(mine.every((id) => inShard(id, shard)));
 * ```
 *
 * @module
 */

/** One share of the items: `index` in 1..`count`. */
export interface Shard {
  /** 1-based share number (K of `K/N`). */
  readonly index: number;
  /** Number of shares (N of `K/N`). */
  readonly count: number;
}

/** Largest N of `--shard K/N`. */
export const MAX_SHARDS = 10_000;

/** Parse `K/N` (1 ≤ K ≤ N ≤ {@link MAX_SHARDS}); throws RangeError naming the value. */
export function parseShard(text: string): Shard {
  const match = /^(\d{1,5})\/(\d{1,5})$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || !(count >= 1) || count > MAX_SHARDS || !(index >= 1) || index > count) {
    throw new RangeError(
      `Option --shard must be K/N with 1 <= K <= N <= ${MAX_SHARDS}: ${text}`,
    );
  }
  return { index, count };
}

const encoder = new TextEncoder();

/** 32-bit FNV-1a hash of the UTF-8 bytes of `text`. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** The 1-based share of `id` among `count` shares. */
export function shardOf(id: string, count: number): number {
  return (stableHash(id) % count) + 1;
}

/** Whether `id` belongs to `shard`. */
export function inShard(id: string, shard: Shard): boolean {
  return shardOf(id, shard.count) === shard.index;
}
