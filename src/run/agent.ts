/**
 * Which backend to start: `--agent`, else `MAGI_CODE_AGENT`, else
 * `magi-code serve --stdio` when `magi-code` is on PATH. The reference backend
 * (a scripted provider, no model) serves only when named: `--agent reference`
 * or `MAGI_CODE_AGENT=reference` (Deno only; the npm package does not ship it),
 * or the demo. None of them is `backend_unavailable` (exit 3) saying how to fix
 * it: a CI job whose agent is not installed must not pass on a scripted model.
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
import { HostError, UsageError } from "../errors/mod.ts";
import { splitCommandLine } from "./split.ts";
import { toolConfigFlags } from "../sandbox/module_config.ts";

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

/** The word that names the reference backend in `--agent` and `MAGI_CODE_AGENT`. */
export const REFERENCE_AGENT_WORD = "reference";

/** Options of {@link resolveAgentCommand}. */
export interface ResolveAgentOptions {
  /** The runtime deciding whether the reference backend exists; default the current one. */
  readonly runtime?: RuntimeName;
  /**
   * When no backend is named and `magi-code` is not on PATH: `throw` (default) the
   * `backend_unavailable` error, or `magi-code` to return `magi-code serve --stdio` anyway
   * (the inspector, whose tool forms need no backend: its turns then fail to start, saying so).
   */
  readonly missing?: "throw" | "magi-code";
  /** Reads `MAGI_CODE_AGENT` and `PATH`; default: the process's environment. */
  readonly env?: (name: string) => string | undefined;
}

/** The error message when no backend is named and `magi-code` is not on PATH. */
export const NO_AGENT_MESSAGE =
  "No agent backend: magi-code is not on PATH and neither --agent nor MAGI_CODE_AGENT is set. " +
  "Install magi-code (magi-code serve --stdio), or pass --agent CMD (or set MAGI_CODE_AGENT); " +
  "--agent reference runs the scripted reference backend (no model, for tests and demos; Deno only)";

/** The usage error of `--agent reference` on Node.js. */
const NO_REFERENCE_MESSAGE =
  "The reference backend is only available on Deno (the npm package does not ship it): pass --agent CMD";

/** The `backend` of `host.ready` (docs/summaries.md): which backend served. */
export interface BackendInfo {
  /** `magi-code`, `reference` (the scripted reference backend) or `other` (another command). */
  readonly kind: "magi-code" | "reference" | "other";
  /** The program's basename (never its arguments, which may hold secrets). */
  readonly command: string;
  /** Where it was chosen: `flag` (--agent), `env` (MAGI_CODE_AGENT), `path`, `reference` (the demo). */
  readonly from: AgentCommand["source"];
}

/** Which backend `agent` is, for `host.ready`. */
export function backendInfo(agent: AgentCommand): BackendInfo {
  const kind = agent.label === "reference_backend"
    ? "reference"
    : agent.label === "magi-code"
    ? "magi-code"
    : "other";
  return { kind, command: agent.label, from: agent.source };
}

/**
 * Resolve the agent command from the `--agent` value (if any) and the
 * environment. Throws `UsageError` for a malformed command line and, on
 * Node.js, when no backend is named and `magi-code` is not on `PATH`.
 */
export async function resolveAgentCommand(
  flag: string | undefined,
  options: ResolveAgentOptions = {},
): Promise<AgentCommand> {
  const env = options.env ?? getEnv;
  const fromEnv = env("MAGI_CODE_AGENT");
  const line = flag ?? (fromEnv !== undefined && fromEnv.trim() !== "" ? fromEnv : undefined);
  const named = flag !== undefined ? "--agent" : "MAGI_CODE_AGENT";
  if (line !== undefined && line.trim() === REFERENCE_AGENT_WORD) {
    if ((options.runtime ?? runtimeName()) !== "deno") {
      throw new UsageError(`${named} reference: ${NO_REFERENCE_MESSAGE}`);
    }
    return { ...referenceBackendCommand(), source: flag !== undefined ? "flag" : "env" };
  }
  if (line !== undefined) {
    let words: string[];
    try {
      words = splitCommandLine(line);
    } catch (error) {
      // Name where the bad command line came from.
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(`${named}: ${error.message}`);
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
  const onPath = await findOnPath("magi-code", env("PATH"));
  if (onPath !== null) {
    return { command: onPath, args: ["serve", "--stdio"], source: "path", label: "magi-code" };
  }
  if (options.missing === "magi-code") {
    return { command: "magi-code", args: ["serve", "--stdio"], source: "path", label: "magi-code" };
  }
  // Never the reference backend unasked: its scripted provider would pass any CI job.
  throw new HostError("backend_unavailable", NO_AGENT_MESSAGE);
}
