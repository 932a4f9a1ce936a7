/**
 * Which backend to start: `--agent`, else `MAGI_CODE_AGENT`, else
 * `magi-code serve --stdio` when `magi-code` is on PATH, else, on Deno, this
 * repo's reference backend. On Node.js (the npm package, which does not ship
 * the reference backend) having none of the three is a usage error asking
 * for `--agent`.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import {
  findOnPath,
  getEnv,
  runtimeExecutable,
  type RuntimeName,
  runtimeName,
} from "../runtime/mod.ts";
import { UsageError } from "./exit_codes.ts";
import { splitCommandLine } from "./split.ts";
import { toolConfigFlags } from "../host/sandbox/module_config.ts";

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
  /**
   * The command line exactly as given (`--agent` or `MAGI_CODE_AGENT`), for
   * stderr messages only (it may hold secrets: never in summaries).
   */
  given?: string;
}

/**
 * Path of this repository's reference backend entry point, as a file system
 * path (percent-escapes such as `%20` decoded). `base` is this module's URL.
 */
export function referenceBackendPath(base: string = import.meta.url): string {
  return fileURLToPath(new URL("../reference_backend/main.ts", base));
}

/** The reference backend as an agent command. */
export function referenceBackendCommand(): AgentCommand {
  return {
    command: runtimeExecutable(),
    // From the npm package the entry lies in Deno's npm cache: it needs the project's config.
    args: ["run", "-A", ...toolConfigFlags(), referenceBackendPath(), "serve", "--stdio"],
    source: "reference",
    label: "reference_backend",
  };
}

function basename(path: string): string {
  const parts = path.split("/");
  return parts[parts.length - 1] || path;
}

/** Options of {@link resolveAgentCommand}. */
export interface ResolveAgentOptions {
  /** The runtime deciding the reference-backend fallback; default the current one. */
  readonly runtime?: RuntimeName;
}

/** The usage error when no backend is named and none can be found (Node.js only). */
export const NO_AGENT_MESSAGE =
  "No backend: pass --agent CMD (or set MAGI_CODE_AGENT, or put magi-code on PATH); the reference backend is only available on Deno";

/**
 * Resolve the agent command from the `--agent` value (if any) and the
 * environment. Throws `UsageError` for a malformed command line and, on
 * Node.js, when no backend is named and `magi-code` is not on `PATH`.
 */
export async function resolveAgentCommand(
  flag: string | undefined,
  options: ResolveAgentOptions = {},
): Promise<AgentCommand> {
  const fromEnv = getEnv("MAGI_CODE_AGENT");
  const line = flag ?? (fromEnv !== undefined && fromEnv.trim() !== "" ? fromEnv : undefined);
  if (line !== undefined) {
    let words: string[];
    try {
      words = splitCommandLine(line);
    } catch (error) {
      // Name where the bad command line came from.
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(
        `${flag !== undefined ? "--agent" : "MAGI_CODE_AGENT"}: ${error.message}`,
      );
    }
    const [command, ...args] = words;
    return {
      command: command!,
      args,
      source: flag !== undefined ? "flag" : "env",
      label: basename(command!),
      given: line,
    };
  }
  const onPath = await findOnPath("magi-code");
  if (onPath !== null) {
    return { command: onPath, args: ["serve", "--stdio"], source: "path", label: "magi-code" };
  }
  // The reference backend is a Deno program shipped with the Deno package only.
  if ((options.runtime ?? runtimeName()) !== "deno") throw new UsageError(NO_AGENT_MESSAGE);
  return referenceBackendCommand();
}
