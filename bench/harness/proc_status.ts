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
