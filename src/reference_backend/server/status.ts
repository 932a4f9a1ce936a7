/**
 * The `status` object (wire-contract "Status") built from the child's admission state.
 *
 * @module
 */

import type { StartupErrorCode } from "../../protocol/errors.ts";
import type { SelectionObject } from "../catalog/selection_state.ts";
import type { Runtime } from "../startup/startup.ts";

/** Admission state of the child, as status reports it. */
export type Admission =
  | { phase: "uninitialized" }
  | { phase: "starting" }
  | { phase: "ready"; runtime: Runtime }
  | { phase: "failed"; code: StartupErrorCode; contextId: string | null };

/** The live parts of a ready child's status. */
export interface LiveState {
  /** Attached session ID, or null. */
  sessionId: string | null;
  /** Active run ID, or null. */
  runId: string | null;
  /** Current selection (ready children). */
  selection: SelectionObject | null;
}

/** Build the status object for `admission`. */
export function statusObject(admission: Admission, live: LiveState): Record<string, unknown> {
  switch (admission.phase) {
    case "uninitialized":
    case "starting":
      return {
        state: "starting",
        readiness: "initializing",
        provider: null,
        model: null,
        context_id: null,
        session_id: null,
        run_id: null,
        selection: null,
      };
    case "failed":
      return {
        state: "failed",
        readiness: admission.code,
        provider: null,
        model: null,
        context_id: admission.contextId,
        session_id: null,
        run_id: null,
        selection: null,
      };
    case "ready": {
      const { contextId } = admission.runtime;
      const selection = live.selection;
      const provider = selection === null
        ? safeName(admission.runtime.provider)
        : selection.provider;
      const model = selection === null ? safeName(admission.runtime.model) : selection.model;
      return {
        state: live.runId === null ? "idle" : "running",
        readiness: "ready",
        provider,
        model,
        context_id: contextId,
        session_id: live.sessionId,
        run_id: live.runId,
        selection,
      };
    }
  }
}

/**
 * `name`, or null when it carries a control character (C0, DEL or C1, e.g. U+0085), is not
 * well-formed UTF-16, is empty, or looks like a secret (a key prefix or word, or a long
 * unbroken token) — status and selection never echo something that may be a credential or
 * that the wire's name grammar rejects (as the catalog side does).
 *
 * @example
 * ```ts
 * import { safeName } from "./status.ts";
 * console.assert(safeName("scripted-1") === "scripted-1");
 * console.assert(safeName("model\u0085") === null);
 * console.assert(safeName("sk-live-123") === null);
 * ```
 */
export function safeName(name: string): string | null {
  // deno-lint-ignore no-control-regex
  if (name === "" || /[\u0000-\u001f\u007f-\u009f]/.test(name) || !name.isWellFormed()) {
    return null;
  }
  if (/(^sk-|api[_-]?key|secret|token|bearer|password)/i.test(name)) return null;
  if (/[A-Za-z0-9+/=_]{40,}/.test(name)) return null;
  return name;
}
