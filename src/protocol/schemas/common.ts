/**
 * Shared building blocks for the version-1 schemas: ID grammars, effort
 * enums and UTF-8 byte-bounded strings.
 *
 * @module
 */

import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../errors.ts";
import { ID_BYTES } from "../limits.ts";
import { utf8ByteLength } from "../utf8.ts";

export { utf8ByteLength };

/**
 * Compare two strings by their UTF-8 byte sequences (the spec's "UTF-8 byte order").
 * Returns a negative number, zero or a positive number.
 */
export function compareUtf8(a: string, b: string): number {
  const encoder = new TextEncoder();
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = (x[i] as number) - (y[i] as number);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

// Unicode general category Cc: C0 controls, DEL and C1 controls.
const CONTROL = /\p{Cc}/u;
const CONTROL_EXCEPT_LF_TAB = /(?![\n\t])\p{Cc}/u;

/** Options of {@link boundedString}. */
export interface BoundedStringOptions {
  /** Minimum UTF-8 bytes (default 0). */
  minBytes?: number;
  /** Reject control characters: `"all"` (any Cc) or `"except_lf_tab"`. Default: allowed. */
  controls?: "all" | "except_lf_tab";
}

/**
 * A well-formed string of at most `maxBytes` UTF-8 bytes (and at least
 * `options.minBytes`), optionally without control characters.
 */
export function boundedString(maxBytes: number, options: BoundedStringOptions = {}): z.ZodString {
  const minBytes = options.minBytes ?? 0;
  const controls = options.controls;
  return z.string().check((ctx) => {
    const value = ctx.value;
    if (!value.isWellFormed()) {
      ctx.issues.push({
        code: "custom",
        message: "String is not well-formed UTF-16",
        input: value,
      });
      return;
    }
    const bytes = utf8ByteLength(value);
    if (bytes < minBytes || bytes > maxBytes) {
      ctx.issues.push({
        code: "custom",
        message: `String must be ${minBytes}-${maxBytes} UTF-8 bytes: got ${bytes}`,
        input: value,
      });
    }
    const pattern = controls === "all"
      ? CONTROL
      : controls === "except_lf_tab"
      ? CONTROL_EXCEPT_LF_TAB
      : undefined;
    if (pattern !== undefined && pattern.test(value)) {
      ctx.issues.push({
        code: "custom",
        message: "String contains a control character",
        input: value,
      });
    }
  });
}

/** Request IDs, method and capability names, revisions, cursors, opaque IDs: `[A-Za-z0-9._-]{1,64}`. */
export const WIRE_ID_PATTERN: RegExp = new RegExp(`^[A-Za-z0-9._-]{1,${ID_BYTES}}$`);
/** Backend session ID grammar: `[A-Za-z0-9_-]{1,64}`. */
export const SESSION_ID_PATTERN: RegExp = new RegExp(`^[A-Za-z0-9_-]{1,${ID_BYTES}}$`);
/** Fixed codes (notices, diagnostic and tool error codes): `^[a-z][a-z0-9_]{0,63}$`. */
export const CODE_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
/** 64 lowercase hex characters (SHA-256 digests: `context_id`, `tool_id`). */
export const HEX64_PATTERN = /^[0-9a-f]{64}$/;
/** Lowercase UUID (`instance_id`). */
export const LOWER_UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An opaque wire ID (request ID, revision, cursor, run/message/call ID). */
export const WireIdSchema: z.ZodString = z.string().regex(WIRE_ID_PATTERN);
/** An opaque wire ID. */
export type WireId = z.infer<typeof WireIdSchema>;

/** A capability or method name (same grammar as wire IDs). */
export const CapabilityNameSchema: z.ZodString = z.string().regex(WIRE_ID_PATTERN);
/** A capability name. */
export type CapabilityName = z.infer<typeof CapabilityNameSchema>;

/** A backend session ID. */
export const SessionIdSchema: z.ZodString = z.string().regex(SESSION_ID_PATTERN);
/** A backend session ID. */
export type SessionId = z.infer<typeof SessionIdSchema>;

/** A fixed lowercase code (notice, diagnostic code, tool `error_code`). */
export const CodeSchema: z.ZodString = z.string().regex(CODE_PATTERN);
/** A fixed lowercase code. */
export type Code = z.infer<typeof CodeSchema>;

/** A SHA-256 digest, 64 lowercase hex characters. */
export const Hex64Schema: z.ZodString = z.string().regex(HEX64_PATTERN);

/** Notices: fixed bounded codes. */
export const NoticesSchema: z.ZodArray<z.ZodString> = z.array(CodeSchema);

/** Effort values (status, catalog): no aliases, no case folding. */
export const EFFORTS = ["default", "low", "medium", "high", "xhigh", "max"] as const;
/** An effort value. */
export type Effort = typeof EFFORTS[number];
/** An effort value. */
export const EffortSchema: z.ZodType<Effort> = z.enum(EFFORTS);

/** Explicit effort levels accepted by `selection.set` `{mode:"set"}` (no `default`). */
export const EXPLICIT_EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
/** An explicit effort level. */
export type ExplicitEffort = typeof EXPLICIT_EFFORTS[number];
/** An explicit effort level. */
export const ExplicitEffortSchema: z.ZodType<ExplicitEffort> = z.enum(EXPLICIT_EFFORTS);

/** `effort_support` of a selection or catalog choice. */
export type EffortSupport = "supported" | "unsupported" | "unknown";
/** `effort_support` of a selection or catalog choice. */
export const EffortSupportSchema: z.ZodType<EffortSupport> = z.enum([
  "supported",
  "unsupported",
  "unknown",
]);

/** Params exactly `{}`. */
export type EmptyParams = Record<never, never>;
/** Params exactly `{}`. */
export const EmptyParamsSchema: z.ZodType<EmptyParams> = z.strictObject({});

/** Any JSON object (record of unknown values). */
export type JsonObject = Record<string, unknown>;
/** Any JSON object (record of unknown values). */
export const JsonObjectSchema: z.ZodRecord<z.ZodString, z.ZodUnknown> = z.record(
  z.string(),
  z.unknown(),
);

/** The wire error object, exactly `{ "code": string }`. */
export type ErrorObject = {
  code: string;
};
/** The wire error object. */
export const ErrorObjectSchema: z.ZodType<ErrorObject> = z.strictObject({ code: z.string() });

/** A known version-1 error code. */
export const ErrorCodeSchema: z.ZodType<ErrorCode> = z.enum(
  ERROR_CODES as readonly [ErrorCode, ...ErrorCode[]],
);
/** The wire error object with a known code (clients fail closed otherwise). */
export type KnownErrorObject = {
  code: ErrorCode;
};
/** The wire error object narrowed to a known version-1 code. */
export const KnownErrorObjectSchema: z.ZodType<KnownErrorObject> = z.strictObject({
  code: ErrorCodeSchema,
});

/**
 * Count JSON container nesting (a root object or array counts as 1). Stops
 * descending once `cap` is exceeded, so the result is at most `cap + 1`.
 */
export function jsonDepth(value: unknown, cap = Number.MAX_SAFE_INTEGER): number {
  if (value === null || typeof value !== "object") return 0;
  if (cap <= 0) return 1;
  let deepest = 0;
  const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
  for (const child of children) {
    deepest = Math.max(deepest, jsonDepth(child, cap - 1));
    if (deepest >= cap) break;
  }
  return deepest + 1;
}
