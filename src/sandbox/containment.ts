/**
 * How a tool process is contained beyond its permissions (Deno only,
 * internal): its memory cap and the processes it starts.
 *
 * - Memory: on Linux the launcher sets `RLIMIT_DATA` before it executes the
 *   tool's `deno run` (`launcher.ts`), which the kernel enforces on every
 *   mapping of private writable memory; elsewhere only V8's heap cap
 *   (`--max-old-space-size`) applies, and the host says so.
 * - Descendants: on Linux, where `unshare(1)` can create a PID namespace (as
 *   root, or in an unprivileged user namespace), the tool process is the
 *   namespace's init: when it ends, the kernel kills every process left in it
 *   (a background `sleep &`, a `setsid` daemon). `setpriv --pdeathsig KILL`
 *   ends that namespace when the host dies without cleaning up (SIGKILL).
 *   Elsewhere the host signals the tool process's group only, which a
 *   process that calls `setsid()` leaves.
 *
 * @module
 */

import { osName, spawnChild } from "../runtime/mod.ts";

/** How `memoryMb` is enforced: `rlimit` (RLIMIT_DATA, Linux) or `heap_only` (V8's heap). */
export type MemoryEnforcement = "rlimit" | "heap_only";

/** How a tool's processes end with it: `pid_namespace` or `process_group` only. */
export type DescendantContainment = "pid_namespace" | "process_group";

/** What the host found out at startup ({@link probeProcessLimits}). */
export interface ProcessLimits {
  /** How `memoryMb` is enforced. */
  readonly memory: MemoryEnforcement;
  /** How processes a tool started end when its process (or the host) ends. */
  readonly descendants: DescendantContainment;
  /** Why one of them is the weaker kind (null when both are the strong kind). */
  readonly reason: string | null;
  /** The command that wraps every tool process (empty: none). */
  readonly wrapper: readonly string[];
}

const PROBE_TIMEOUT_MS = 10_000;
/**
 * Inside the namespace the tool process is PID 1. This shell (the namespace's first program,
 * replaced in place by the launch) reads the PID of its parent, the wrapper the host spawned
 * and signals, from `/proc/self/stat` (the host's `/proc`, so host PIDs) and appends it as
 * `--host-pid=N`: the runner makes that the tool's `Deno.pid`.
 */
const HOST_PID_SCRIPT = 'read -r _ _ _ ppid _ < /proc/self/stat && exec "$@" "--host-pid=$ppid"';
/** POSIX's shell; the namespace probe runs it, so a system without it has no namespace here. */
const SH = "/bin/sh";
const UNSHARE = ["/usr/bin/unshare", "/bin/unshare"];
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"];
/** As root (CAP_SYS_ADMIN) first, else in an unprivileged user namespace mapping this user. */
const NAMESPACE_VARIANTS: readonly (readonly string[])[] = [
  ["--pid", "--fork", "--kill-child"],
  ["--user", "--map-current-user", "--pid", "--fork", "--kill-child"],
];

/** The first of `paths` the host may run, or null. */
function runnable(paths: readonly string[]): string | null {
  for (const path of paths) {
    try {
      if (!Deno.statSync(path).isFile) continue;
      if (Deno.permissions.querySync({ name: "run", command: path }).state === "granted") {
        return path;
      }
    } catch {
      // Missing, or the host may not look: try the next.
    }
  }
  return null;
}

/** Whether `command args` exits 0 within the probe timeout. */
async function succeeds(command: string, args: readonly string[]): Promise<boolean> {
  let child;
  try {
    child = spawnChild(command, args, { stderr: "null" });
  } catch {
    return false;
  }
  await child.stdin.close().catch(() => {});
  const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
  try {
    const [, status] = await Promise.all([new Response(child.stdout).arrayBuffer(), child.exited]);
    return status.code === 0;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

let probed: Promise<ProcessLimits> | undefined;

/** {@link ProcessLimits} of this host, probed once (two short `unshare` runs). Never rejects. */
export function probeProcessLimits(): Promise<ProcessLimits> {
  probed ??= computeLimits();
  return probed;
}

async function computeLimits(): Promise<ProcessLimits> {
  if (osName() !== "linux") {
    const reason =
      `memoryMb caps only the JavaScript heap and a tool's processes that leave its process group outlive it: both need Linux (this is ${osName()})`;
    return { memory: "heap_only", descendants: "process_group", reason, wrapper: [] };
  }
  const unshare = runnable(UNSHARE);
  if (unshare === null) {
    return {
      memory: "rlimit",
      descendants: "process_group",
      reason:
        "no PID namespace: unshare(1) is missing or not allowed by the host's --allow-run, so a tool's processes that leave its process group (setsid) outlive it",
      wrapper: [],
    };
  }
  // The probe runs the shell too: no stat of it (the host may lack read access to /bin).
  for (const variant of NAMESPACE_VARIANTS) {
    if (await succeeds(unshare, [...variant, "--", SH, "-c", "exit 0"])) {
      const setpriv = runnable(SETPRIV);
      const pdeath = setpriv !== null && await succeeds(setpriv, ["--pdeathsig", "KILL", "true"]);
      const wrapper = [
        ...(pdeath ? [setpriv!, "--pdeathsig", "KILL", "--"] : []),
        unshare,
        ...variant,
        "--",
        SH,
        "-c",
        HOST_PID_SCRIPT,
        "sh",
      ];
      return { memory: "rlimit", descendants: "pid_namespace", reason: null, wrapper };
    }
  }
  return {
    memory: "rlimit",
    descendants: "process_group",
    reason:
      "no PID namespace: unshare --pid failed (no CAP_SYS_ADMIN and no unprivileged user namespaces) or there is no /bin/sh, so a tool's processes that leave its process group (setsid) outlive it",
    wrapper: [],
  };
}

/** `wrapper` + `command args`, as one command and its arguments. */
export function wrapped(
  limits: Pick<ProcessLimits, "wrapper">,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  const [first, ...rest] = limits.wrapper;
  return first === undefined
    ? { command, args: [...args] }
    : { command: first, args: [...rest, command, ...args] };
}
