/**
 * How large a value of a document becomes once every YAML alias and `$ref` in it is expanded,
 * counted without expanding it. A YAML anchor used four times at each of eight levels, or a
 * chain of `#/components` schemas each referring to the next four times, is 1.6 KB as written
 * and 4^8 copies deep once resolved: the `$ref` parser, the schema conversion and the input
 * schema's 16 KiB check would each walk every copy. Counting first, with one count per distinct
 * object (a YAML alias is the same object; a `$ref` counts as its target), costs one visit per
 * object as written, so such a document is refused before anything walks the copies.
 *
 * @module
 */

/**
 * Most nodes (objects, arrays and scalars, counting each alias and `$ref` target once per use)
 * one operation may expand to. The input schema it yields is at most 16 KiB, but the operation
 * also holds its responses, examples and descriptions, and schemas nested below 12 levels are
 * cut only later: GitHub's largest operation (issue timeline) expands to about 20,000 nodes.
 */
export const MAX_EXPANDED_NODES = 200_000;

/** A `$ref`'s target, and the document it is in (for the `$ref`s inside it). */
export interface RefTarget {
  readonly value: unknown;
  readonly base: string;
}

/**
 * The expanded size of values of documents: `follow(ref, base)` finds what `$ref` `ref` of the
 * document at `base` points at, or undefined (then the `$ref` counts as one node; resolution
 * reports it). A `$ref` back to a value being counted counts as one node: the `$ref` parser
 * leaves it in place.
 */
export class ExpansionCounter {
  readonly #follow: (ref: string, base: string) => RefTarget | undefined;
  readonly #budget: number;
  readonly #sizes = new WeakMap<object, number>();
  readonly #open = new WeakSet<object>();

  /** Sizes above `budget` are reported as `budget + 1` (the count stops there). */
  constructor(
    follow: (ref: string, base: string) => RefTarget | undefined,
    budget: number = MAX_EXPANDED_NODES,
  ) {
    this.#follow = follow;
    this.#budget = budget;
  }

  /** Nodes `value` (of the document at `base`) expands to, at most `budget + 1`. */
  size(value: unknown, base: string): number {
    if (typeof value !== "object" || value === null) return 1;
    const known = this.#sizes.get(value);
    if (known !== undefined) return known;
    if (this.#open.has(value)) return 1;
    this.#open.add(value);
    let total = 1;
    const ref = Array.isArray(value) ? undefined : (value as Record<string, unknown>)["$ref"];
    if (typeof ref === "string") {
      const target = this.#follow(ref, base);
      if (target !== undefined) total += this.size(target.value, target.base);
    }
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) {
      if (total > this.#budget) break;
      total += this.size(child, base);
    }
    this.#open.delete(value);
    total = Math.min(total, this.#budget + 1);
    this.#sizes.set(value, total);
    return total;
  }
}
