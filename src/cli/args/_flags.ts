/**
 * The flag-parsing building blocks every command's argument parser shares: `node:util`
 * `parseArgs` with usage errors instead of Node's messages, and one parser per kind of value
 * (a non-empty string, one of a few words, seconds, an integer, a session ID).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { UsageError } from "../../errors/mod.ts";
import { didYouMean } from "./suggest.ts";

/** `parseArgs` options. */
export type OptionSpec = Record<
  string,
  { type: "string" | "boolean"; multiple?: boolean; short?: string }
>;

/** Parsed `parseArgs` values. */
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** Strict `parseArgs` of `argv`; an unknown flag or a missing value is a {@link UsageError}. */
export function parseFlags(
  argv: string[],
  options: OptionSpec,
): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options,
      strict: true,
      allowPositionals: true,
    });
    return { values: values as Values, positionals };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error))
      .replace(/\. To specify a positional argument.*$/s, "");
    const unknown = /^Unknown option '([^']+)'$/.exec(message)?.[1];
    if (unknown === undefined) throw new UsageError(message);
    const known = Object.entries(options).flatMap(([name, spec]) =>
      spec.short === undefined ? [`--${name}`] : [`--${name}`, `-${spec.short}`]
    );
    throw new UsageError(`${message}${didYouMean(unknown.replace(/=.*$/s, ""), known)}`);
  }
}

/** A string option's value, or undefined when absent; an empty value is a usage error. */
export function optionalString(value: unknown, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw new UsageError(`Option ${flag} needs a value`);
  }
  return value;
}

/**
 * A string option that is one of `words` (`fallback` when absent); else a usage error listing
 * them: `Option --format must be text or ndjson: html`.
 */
export function oneOf<const T extends string>(
  value: unknown,
  flag: string,
  words: readonly T[],
  fallback: T,
): T;
export function oneOf<const T extends string>(
  value: unknown,
  flag: string,
  words: readonly T[],
): T | undefined;
export function oneOf<const T extends string>(
  value: unknown,
  flag: string,
  words: readonly T[],
  fallback?: T,
): T | undefined {
  const given = optionalString(value, flag);
  if (given === undefined) return fallback;
  if (!(words as readonly string[]).includes(given)) {
    const list = `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
    throw new UsageError(`Option ${flag} must be ${list}: ${given}`);
  }
  return given as T;
}

/**
 * A number of seconds in (0, 86400] (or [0, 86400] with `zero`) as milliseconds, or undefined
 * when absent.
 *
 * @example
 * ```ts
 * import { seconds } from "./_flags.ts";
 * console.assert(seconds("1.5", "--timeout") === 1500);
 * console.assert(seconds("0", "--stall-timeout", { zero: true }) === 0);
 * ```
 */
export function seconds(
  value: unknown,
  flag: string,
  { zero = false }: { zero?: boolean } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+(\.\d+)?$/.test(String(value)) || number > 86_400 || (!zero && !(number > 0))) {
    throw new UsageError(
      `Option ${flag} must be a number of seconds in ${zero ? "[0" : "(0"}, 86400]: ${value}`,
    );
  }
  return Math.round(number * 1000);
}

/**
 * A decimal integer from `min` to `max`, or undefined when absent; the error calls it `noun`
 * (`Option --http must be a port number from 0 to 65535: x1`).
 *
 * @example
 * ```ts
 * import { integer } from "./_flags.ts";
 * console.assert(integer("8080", "--port", 0, 65_535) === 8080);
 * console.assert(integer(undefined, "--port", 0, 65_535) === undefined);
 * ```
 */
export function integer(
  value: unknown,
  flag: string,
  min: number,
  max: number,
  noun = "an integer",
): number | undefined {
  const raw = optionalString(value, flag);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    throw new UsageError(`Option ${flag} must be ${noun} from ${min} to ${max}: ${raw}`);
  }
  return n;
}

/** The session ID grammar of the protocol: `[A-Za-z0-9_-]`, 1 to 64 characters. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `value` when it is a well-formed session ID; else a usage error naming `what`. */
export function sessionId(value: string, what: string): string {
  if (!SESSION_ID.test(value)) {
    throw new UsageError(
      `${what} is not a session ID (1 to 64 of A-Z a-z 0-9 _ -): ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** `--session ID`, or undefined when absent. */
export function optionalSession(value: unknown): string | undefined {
  const given = optionalString(value, "--session");
  return given === undefined ? undefined : sessionId(given, "Option --session");
}
