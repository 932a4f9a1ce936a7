/**
 * Memory figures of a process from `/proc/<pid>/status` (Linux).
 *
 * @module
 */

/** Resident set size now and at its peak, KiB. */
export interface MemoryStatus {
  /** `VmRSS`: resident set size now. */
  rssKb: number;
  /** `VmHWM`: peak resident set size. */
  hwmKb: number;
}

/**
 * Parse the `VmRSS` and `VmHWM` lines of a `/proc/<pid>/status` text.
 * Throws `TypeError` when either is missing.
 *
 * @example
 * ```ts
 * import { parseMemoryStatus } from "./proc_status.ts";
 * const m = parseMemoryStatus("VmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\n");
 * console.assert(m.rssKb === 1024 && m.hwmKb === 2048);
 * ```
 */
export function parseMemoryStatus(text: string): MemoryStatus {
  const rss = /^VmRSS:\s+(\d+) kB$/m.exec(text);
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(text);
  if (rss === null || hwm === null) throw new TypeError("Process status has no VmRSS/VmHWM");
  return { rssKb: Number(rss[1]), hwmKb: Number(hwm[1]) };
}

/** Read the memory figures of process `pid`. */
export function readMemoryStatus(pid: number): MemoryStatus {
  return parseMemoryStatus(Deno.readTextFileSync(`/proc/${pid}/status`));
}

/**
 * User plus system CPU time of a process, ms, from fields 14 and 15 of a
 * `/proc/<pid>/stat` text (clock ticks of `ticksPerSecond`, 100 on Linux).
 * The command name (field 2) may hold spaces and parentheses, so fields are
 * counted after its last `)`. Throws `TypeError` for a text without them.
 *
 * @example
 * ```ts
 * import { parseCpuTimeMs } from "./proc_status.ts";
 * const stat = "42 (deno (x)) S 1 2 3 4 5 6 7 8 9 10 150 50 0 0";
 * console.assert(parseCpuTimeMs(stat) === 2000);
 * ```
 */
export function parseCpuTimeMs(text: string, ticksPerSecond = 100): number {
  const { user, system } = parseCpuSplitMs(text, ticksPerSecond);
  return user + system;
}

/** A process's CPU time so far, ms: in user space and in the kernel (`utime`, `stime`). */
export interface CpuSplit {
  /** `utime`: running its own code (JavaScript, V8, the runtime's Rust). */
  user: number;
  /** `stime`: in the kernel on its behalf (system calls: pipe reads and writes, wake-ups). */
  system: number;
}

/**
 * User and system CPU time of a process, ms, from fields 14 and 15 of a
 * `/proc/<pid>/stat` text, as {@link parseCpuTimeMs} (whose sum they are).
 *
 * @example
 * ```ts
 * import { parseCpuSplitMs } from "./proc_status.ts";
 * const stat = "42 (deno (x)) S 1 2 3 4 5 6 7 8 9 10 150 50 0 0";
 * console.assert(parseCpuSplitMs(stat).system === 500);
 * ```
 */
export function parseCpuSplitMs(text: string, ticksPerSecond = 100): CpuSplit {
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // After the name: field 3 (state) is index 0, so utime (14) and stime (15) are 11 and 12.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isSafeInteger(utime) || !Number.isSafeInteger(stime)) {
    throw new TypeError("Process stat has no utime/stime");
  }
  return { user: utime * 1000 / ticksPerSecond, system: stime * 1000 / ticksPerSecond };
}

/** User plus system CPU time of process `pid` so far, ms (10 ms resolution). */
export function readCpuTimeMs(pid: number): number {
  return parseCpuTimeMs(Deno.readTextFileSync(`/proc/${pid}/stat`));
}

/** User and system CPU time of process `pid` so far, ms (10 ms resolution each). */
export function readCpuSplitMs(pid: number): CpuSplit {
  return parseCpuSplitMs(Deno.readTextFileSync(`/proc/${pid}/stat`));
}

/**
 * CPU time so far of a process's main thread, ms, from the first field of a
 * `/proc/<pid>/schedstat` text (nanoseconds on the CPU: far finer than `/proc/<pid>/stat`'s
 * 10 ms ticks, for startups). It counts the thread-group leader only: for `deno run`, the
 * JavaScript thread, without V8's and the runtime's helper threads.
 * Throws `TypeError` for a text without it.
 *
 * @example
 * ```ts
 * import { parseSchedstatMs } from "./proc_status.ts";
 * console.assert(parseSchedstatMs("173600000 1829726 1\n") === 173.6);
 * ```
 */
export function parseSchedstatMs(text: string): number {
  const ns = Number(text.split(" ")[0]);
  if (!Number.isSafeInteger(ns) || ns < 0) throw new TypeError("Process schedstat has no run time");
  return ns / 1e6;
}

/** CPU time of process `pid`'s main thread so far, ms (`/proc/<pid>/schedstat`, ns resolution). */
export function readSchedstatMs(pid: number): number {
  return parseSchedstatMs(Deno.readTextFileSync(`/proc/${pid}/schedstat`));
}

/**
 * CPU time per timed call of each named process, µs (`/proc/<pid>/stat`,
 * 10 ms resolution, so use enough calls for the figure to mean something):
 * pass {@link CpuMeter.onTimed} as `runLoad`'s `onTimed`, then read
 * {@link CpuMeter.perCall}. A process whose pid is unknown (`null`) or whose
 * stat cannot be read is left out.
 *
 * @example
 * ```ts
 * import { CpuMeter } from "./proc_status.ts";
 * const meter = new CpuMeter({ self: () => Deno.pid });
 * meter.onTimed("start");
 * meter.onTimed("end");
 * console.assert(meter.perCall(10).self !== undefined);
 * ```
 */
export class CpuMeter {
  #pids: Record<string, () => number | null | undefined>;
  #start: Record<string, CpuSplit> = {};
  #spent: Record<string, number> = {};
  #spentSystem: Record<string, number> = {};

  /** Processes by role name, each pid read when a phase begins. */
  constructor(pids: Record<string, () => number | null | undefined>) {
    this.#pids = pids;
  }

  /** Read every process's CPU time at the start or end of the timed calls. */
  onTimed = (phase: "start" | "end"): void => {
    for (const [name, pid] of Object.entries(this.#pids)) {
      const split = CpuMeter.#read(pid());
      if (phase === "start") this.#start[name] = split;
      else {
        const start = this.#start[name] ?? { user: NaN, system: NaN };
        this.#spent[name] = split.user + split.system - start.user - start.system;
        this.#spentSystem[name] = split.system - start.system;
      }
    }
  };

  /** CPU µs per call of each process over the timed part, `calls` calls. */
  perCall(calls: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, ms] of Object.entries(this.#spent)) {
      if (Number.isFinite(ms) && calls > 0) out[name] = ms * 1000 / calls;
    }
    return out;
  }

  /** The system (kernel, `stime`) part of {@link CpuMeter.perCall}, µs per call. */
  systemPerCall(calls: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, ms] of Object.entries(this.#spentSystem)) {
      if (Number.isFinite(ms) && calls > 0) out[name] = ms * 1000 / calls;
    }
    return out;
  }

  static #read(pid: number | null | undefined): CpuSplit {
    if (pid === null || pid === undefined) return { user: NaN, system: NaN };
    try {
      return readCpuSplitMs(pid);
    } catch {
      return { user: NaN, system: NaN };
    }
  }
}
