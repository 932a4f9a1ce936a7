/**
 * How a tool process's exit answers the call it leaves: the crash the process
 * itself reported, the kernel sandbox that could not be applied, memory run
 * out (or its `memoryMb` cap reached), or the signal or exit code.
 *
 * @module
 */

import { LAUNCH_ERROR_PREFIX, LAUNCH_FAILED } from "./kernel_policy.ts";
import type { ProcessOutcome } from "./tool_process_spec.ts";
import type { ExitInfo } from "../runtime/mod.ts";

/** What the host saw of a tool process before it exited. */
export interface ExitSeen {
  /** The crash the process reported (or the host found), if any. */
  readonly crash: { readonly message: string; readonly permission?: string } | undefined;
  /** The end of its stderr. */
  readonly stderrTail: string;
  /** Its memory cap, MiB, if it has one. */
  readonly memoryMb: number | undefined;
}

/** The outcome of the call a process leaves when it exits with `status`. */
export function exitOutcome(status: ExitInfo, seen: ExitSeen): ProcessOutcome {
  const { crash, stderrTail, memoryMb } = seen;
  if (crash !== undefined) {
    return {
      kind: "crashed",
      message: crash.message,
      ...(crash.permission === undefined ? {} : { permission: crash.permission }),
    };
  }
  const launch = stderrTail.indexOf(LAUNCH_ERROR_PREFIX);
  if (status.code === LAUNCH_FAILED && launch >= 0) {
    const reason = stderrTail.slice(launch + LAUNCH_ERROR_PREFIX.length).split("\n")[0];
    return { kind: "crashed", message: `the kernel sandbox could not be applied: ${reason}` };
  }
  if (/out of memory|heap limit|allocation failed/i.test(stderrTail)) {
    const message = memoryMb === undefined
      ? "the tool process ran out of memory"
      : `the tool exceeded its memory limit of ${memoryMb} MiB`;
    return { kind: "crashed", message };
  }
  const how = status.signal !== null
    ? `was killed by ${status.signal}`
    : `exited with code ${status.code}`;
  return {
    kind: "crashed",
    message: `the tool process ${how}`,
    ...(status.signal === "SIGINT" ? { interrupted: true as const } : {}),
  };
}
