/**
 * `run --fail-on-tool-error`: count the tool calls of a turn that ended in
 * error or were denied, from the summary records as they are emitted.
 *
 * @module
 */

import type { SummaryRecord } from "../summary/records.ts";
import type { SummaryWriter } from "../summary/writer.ts";

/**
 * Whether a summary record reports a tool call that ended in error or was
 * denied: a client tool's `tool.result` with outcome `error`, an `approval`
 * decided `deny` (by the flag, the user or expiry), or a built-in tool's
 * `activity` (kind `tool`) in state `failed`.
 *
 * @example
 * ```ts
 * import { isToolError } from "./tool_errors.ts";
 * console.assert(isToolError({
 *   type: "approval", ts: "", v: 1, run_id: "r", approval_id: "a", summary: "Write",
 *   decision: "deny", decided_by: "flag", recorded: true,
 * }));
 * ```
 */
export function isToolError(record: SummaryRecord): boolean {
  switch (record.type) {
    case "tool.result":
      return record.outcome === "error";
    case "approval":
      return record.decision === "deny";
    case "activity":
      return record.kind === "tool" && record.state === "failed";
    default:
      return false;
  }
}

/**
 * Counts {@link isToolError} records a writer emits from construction until
 * `stop()`, once per call: a client tool's failed `activity` (its
 * `activity_id` is the call ID) is not counted again after its `tool.result`.
 */
export class ToolErrorTally {
  readonly #failed = new Set<string>();
  readonly #stop: () => void;

  /** Start counting `writer`'s records. */
  constructor(writer: SummaryWriter) {
    this.#stop = writer.observe((record) => {
      if (!isToolError(record)) return;
      const id = record.type === "tool.result"
        ? record.call_id
        : record.type === "activity"
        ? record.activity_id
        : record.type === "approval"
        ? record.call_id ?? `approval:${record.approval_id}`
        : null;
      if (id !== null) this.#failed.add(id);
    });
  }

  /** Errors and denials so far (a call counts once). */
  get count(): number {
    return this.#failed.size;
  }

  /** Stop counting. */
  stop(): void {
    this.#stop();
  }
}
