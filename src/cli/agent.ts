/**
 * Which backend to start: `--agent`, else `MAGI_CODE_AGENT`, else
 * `magi-code serve --stdio` when `magi-code` is on PATH, else this repo's
 * reference backend.
 *
 * @module
 */

import { findOnPath, getEnv, runtimeExecutable } from "../runtime/mod.ts";
import { splitCommandLine } from "./split.ts";

/** A resolved backend command. */
export interface AgentCommand {
  /** Program to run. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** Where it came from. */
  source: "flag" | "env" | "path" | "reference";
  /** Safe label for summaries: the program's basename only (no arguments, no secrets). */
  label: string;
}

/** Path of this repository's reference backend entry point. */
export function referenceBackendPath(): string {
  return new URL("../reference_backend/main.ts", import.meta.url).pathname;
}

/** The reference backend as an agent command. */
export function referenceBackendCommand(): AgentCommand {
  return {
    command: runtimeExecutable(),
    args: ["run", "-A", referenceBackendPath(), "serve", "--stdio"],
    source: "reference",
    label: "reference_backend",
  };
}

function basename(path: string): string {
  const parts = path.split("/");
  return parts[parts.length - 1] || path;
}

/** Resolve the agent command from the `--agent` value (if any) and the environment. */
export async function resolveAgentCommand(flag: string | undefined): Promise<AgentCommand> {
  const fromEnv = getEnv("MAGI_CODE_AGENT");
  const line = flag ?? (fromEnv !== undefined && fromEnv.trim() !== "" ? fromEnv : undefined);
  if (line !== undefined) {
    const [command, ...args] = splitCommandLine(line);
    return {
      command: command!,
      args,
      source: flag !== undefined ? "flag" : "env",
      label: basename(command!),
    };
  }
  const onPath = await findOnPath("magi-code");
  if (onPath !== null) {
    return { command: onPath, args: ["serve", "--stdio"], source: "path", label: "magi-code" };
  }
  return referenceBackendCommand();
}
