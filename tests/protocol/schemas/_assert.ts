// Test helpers for schema tables (not a test file itself).
import assert from "node:assert/strict";
import type { z } from "zod";

/** A named case: the value to parse. */
export type Case = readonly [name: string, value: unknown];

/** Assert that `schema` accepts every case. */
export function assertAccepts(schema: z.ZodType, cases: readonly Case[]): void {
  for (const [name, value] of cases) {
    const result = schema.safeParse(value);
    assert.ok(
      result.success,
      `expected accept: ${name}: ${result.success ? "" : JSON.stringify(result.error.issues)}`,
    );
  }
}

/** Assert that `schema` rejects every case. */
export function assertRejects(schema: z.ZodType, cases: readonly Case[]): void {
  for (const [name, value] of cases) {
    assert.equal(schema.safeParse(value).success, false, `expected reject: ${name}`);
  }
}

/** A copy of `value` with `key` removed. */
export function without<T extends object>(value: T, key: keyof T): Omit<T, typeof key> {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

/**
 * Parse a spec example, turning its `<placeholder>` strings into valid opaque
 * IDs by dropping the angle brackets (`"<opaque-revision>"` → `"opaque-revision"`).
 */
export function specExample(json: string): Record<string, unknown> {
  return JSON.parse(json.replace(/<([^<>]+)>/g, "$1"));
}
