/**
 * The `status` object (wire-contract "Status") built from the child's admission state.
 *
 * @module
 */

import type { StartupErrorCode } from "../../protocol/errors.ts";
import type { SelectionObject } from "../catalog/selection_state.ts";
import type { Runtime } from "../startup/startup.ts";
import { safeName } from "../catalog/providers.ts";

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
