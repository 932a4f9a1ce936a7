/**
 * Strict value checks for config parsers: each names the key path at fault
 * (`mcpServers.fs.args[1]`) and throws {@link ConfigError}.
 *
 * @module
 */

import { ConfigError } from "./errors.ts";

/** Where a value sits: the file and its key path. */
export interface At {
  /** The config file, as given. */
  readonly file: string;
  /** Key path, e.g. `mcpServers.fs.env`. */
  readonly path: string;
}

/** `at` one level deeper: `.key`, or `[index]` for a number. */
export function child(at: At, key: string | number): At {
  if (typeof key === "number") return { file: at.file, path: `${at.path}[${key}]` };
  const safe = /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key) ? key : JSON.stringify(key);
  return { file: at.file, path: at.path === "" ? safe : `${at.path}.${safe}` };
}

/** A {@link ConfigError} for the value at `at`. */
export function fail(at: At, message: string): ConfigError {
  return new ConfigError(`${at.file}: ${at.path === "" ? "(root)" : at.path}: ${message}`);
}

/** Whether `value` is a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The object at `at`. */
export function object(value: unknown, at: At): Record<string, unknown> {
  if (!isObject(value)) throw fail(at, "must be an object");
  return value;
}

/** Reject keys not in `known`, naming the first unknown one and the known ones. */
export function knownKeys(value: Record<string, unknown>, known: readonly string[], at: At): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw fail(child(at, key), `unknown key (known: ${known.join(", ")})`);
    }
  }
}

/** A non-empty string. */
export function string(value: unknown, at: At): string {
  if (typeof value !== "string" || value === "") throw fail(at, "must be a non-empty string");
  return value;
}

/** A boolean. */
export function boolean(value: unknown, at: At): boolean {
  if (typeof value !== "boolean") throw fail(at, "must be true or false");
  return value;
}

/** An integer in `[min, max]`. */
export function integer(value: unknown, at: At, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw fail(at, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** An array of strings (each may be empty only when `allowEmpty`). */
export function strings(value: unknown, at: At, allowEmpty = false): string[] {
  if (!Array.isArray(value)) throw fail(at, "must be an array of strings");
  return value.map((item, index) => {
    if (typeof item !== "string" || (!allowEmpty && item === "")) {
      throw fail(child(at, index), allowEmpty ? "must be a string" : "must be a non-empty string");
    }
    return item;
  });
}

/** An object whose values are strings. */
export function stringMap(value: unknown, at: At): Record<string, string> {
  const map = object(value, at);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(map)) {
    if (typeof item !== "string") throw fail(child(at, key), "must be a string");
    out[key] = item;
  }
  return out;
}
