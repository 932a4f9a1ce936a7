/**
 * The host's view of external tool sources while `run` runs: the summary
 * records they cause (`tool.progress`, `host.warning`). Start-up and
 * teardown of the sources themselves live in `src/config/sources.ts`.
 *
 * @module
 */

import type { ToolProgress } from "../host/external.ts";
import type { SummaryInput } from "../summary/records.ts";

/** The `tool.progress` record of one progress notification of call `callId` in run `runId`. */
export function progressRecord(
  runId: string,
  callId: string,
  name: string,
  update: ToolProgress,
): SummaryInput {
  return {
    type: "tool.progress",
    run_id: runId,
    call_id: callId,
    name,
    progress: update.progress,
    ...(update.total === undefined ? {} : { total: update.total }),
    ...(update.message === undefined ? {} : { message: update.message }),
  };
}
