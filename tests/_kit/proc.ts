/**
 * Processes as Linux's `/proc` shows them, for tests that check what a run left running: a
 * process's state letter, whether it is alive (a zombie counts as gone: it was reaped or will
 * be), and the list of every process with its parent and command line. Linux only; the callers
 * skip elsewhere.
 *
 * @module
 */

/** The fields after the command name of `/proc/<pid>/stat` (the name may hold spaces and `)`). */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The state letter of process `pid` (`R`, `S`, `T` when stopped, `Z`…), or "" once it is gone. */
export function processState(pid: number): string {
  try {
    return statFields(Deno.readTextFileSync(`/proc/${pid}/stat`))[0] ?? "";
  } catch {
    return "";
  }
}

/** Whether process `pid` runs: it exists and is not a zombie. */
export function alive(pid: number): boolean {
  const state = processState(pid);
  return state !== "" && state !== "Z";
}

/** One running process: its ID, its parent's, and its argv joined with spaces. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** State letter, as {@link processState}. */
  state: string;
  /** `argv` joined with single spaces (each argument followed by one). */
  cmdline: string;
}

/** Every process now listed in `/proc` (those that end meanwhile are skipped). */
export function processes(): ProcessEntry[] {
  const list: ProcessEntry[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const fields = statFields(Deno.readTextFileSync(`/proc/${entry.name}/stat`));
      const cmdline = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).replaceAll("\0", " ");
      list.push({
        pid: Number(entry.name),
        ppid: Number(fields[1]),
        state: fields[0] ?? "",
        cmdline,
      });
    } catch {
      // Gone meanwhile.
    }
  }
  return list;
}
