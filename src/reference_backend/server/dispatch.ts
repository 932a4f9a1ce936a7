/**
 * Request admission before any operation runs: method and capability gates, the
 * initialization gate (a later `initialize` is `already_initialized` whatever its params)
 * and params validation, in that order.
 *
 * @module
 */

import type { ErrorCode } from "../../protocol/errors.ts";
import {
  isMethod,
  type Method,
  METHOD_SCHEMAS,
  type MethodParams,
  OPT_IN_CAPABILITIES,
} from "../../protocol/schemas/mod.ts";

/** Where the child is in initialization, as the gate sees it. */
export type Gate = "uninitialized" | "admitted";

/**
 * One admitted request: a method and its params validated against that method's schema, typed
 * per method (switching on `method` narrows `params`).
 */
export type AdmittedRequest = { [M in Method]: { method: M; params: MethodParams<M> } }[Method];

/** The admitted requests of the methods in `M`. */
export type RequestOf<M extends Method> = Extract<AdmittedRequest, { method: M }>;

/** The gate's verdict: the method and validated params, or the error to answer. */
export type Admitted =
  | ({ ok: true } & AdmittedRequest)
  | { ok: false; code: ErrorCode };

/** Decide whether a well-formed request may run. */
export function admitRequest(
  request: { method: string; params: unknown },
  context: { gate: Gate; negotiated: ReadonlySet<string> },
): Admitted {
  const { method, params } = request;
  if (!isMethod(method)) return { ok: false, code: "unsupported_method" };
  // After admission every initialize is answered the same way, malformed params included.
  if (method === "initialize" && context.gate === "admitted") {
    return { ok: false, code: "already_initialized" };
  }
  const free = method === "initialize" || method === "shutdown";
  if (!free && context.gate === "uninitialized") return { ok: false, code: "not_initialized" };
  if (
    (OPT_IN_CAPABILITIES as readonly string[]).includes(method) && !context.negotiated.has(method)
  ) {
    return { ok: false, code: "unsupported_capability" };
  }
  if (method === "client.tool.result" && !context.negotiated.has("client.tools")) {
    return { ok: false, code: "unsupported_capability" };
  }
  const parsed = METHOD_SCHEMAS[method].params.safeParse(params);
  if (!parsed.success) return { ok: false, code: "invalid_params" };
  // The params passed METHOD_SCHEMAS[method], so they have MethodParams<typeof method>.
  return { ok: true, method, params: parsed.data } as Admitted;
}
