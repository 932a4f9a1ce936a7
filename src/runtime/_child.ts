/**
 * What both adapters' `spawnChild` share once the child runs: the exit as
 * {@link ExitInfo} (128 + signal number for a signal death, as Deno reports it)
 * and the {@link ChildHandle} around it, whose `kill` signals the child's whole
 * process group when it leads one and falls back to the child alone.
 *
 * @module
 */

import { constants as osConstants } from "node:os";
import type { ChildHandle, ExitInfo } from "./types.ts";

type KillSignal = "SIGTERM" | "SIGKILL" | "SIGINT";

/** The exit of a child as `node:child_process` reports it, as {@link ExitInfo}. */
export function exitInfoOf(code: number | null, signal: string | null): ExitInfo {
  if (signal !== null) {
    const number = (osConstants.signals as Record<string, number | undefined>)[signal] ?? 0;
    return { code: 128 + number, signal };
  }
  return { code: code ?? 1, signal: null };
}

/** The pieces of a started child {@link childHandle} puts together. */
export interface ChildParts
  extends Pick<ChildHandle, "pid" | "stdin" | "stdout" | "stderr" | "stdinUnflushed"> {
  /** Resolves once the child has exited (never rejects). */
  readonly exit: Promise<ExitInfo>;
  /** Signal the child's process group, or null when it leads none. */
  readonly killGroup: ((signal: KillSignal) => void) | null;
  /** Signal the child alone. */
  readonly killOne: (signal: KillSignal) => void;
}

/** The {@link ChildHandle} of a started child: `kill` is ignored once it has exited. */
export function childHandle(parts: ChildParts): ChildHandle {
  let exited = false;
  const status = parts.exit.then((info) => {
    exited = true;
    return info;
  });
  return {
    pid: parts.pid,
    stdin: parts.stdin,
    ...(parts.stdinUnflushed === undefined ? {} : { stdinUnflushed: parts.stdinUnflushed }),
    stdout: parts.stdout,
    stderr: parts.stderr,
    exited: status,
    get hasExited() {
      return exited;
    },
    kill(signal = "SIGTERM") {
      if (exited) return;
      try {
        if (parts.killGroup !== null) parts.killGroup(signal);
        else parts.killOne(signal);
      } catch {
        try {
          parts.killOne(signal);
        } catch {
          // Already gone between the check and the kill.
        }
      }
    },
  };
}
