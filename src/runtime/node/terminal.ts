/**
 * Where `--approve ask` prompts, on Node.js: `/dev/tty`, which Node.js opens
 * without any permission model; the counterpart of `../deno/terminal.ts`.
 *
 * @module
 */

import { closeSync, openSync, read as readFd, writeSync } from "node:fs";
import type { NoTerminalReason, TtyChannel } from "../types.ts";

/** `/dev/tty`; `none` when there is no controlling terminal. */
export function openTty(): TtyChannel | NoTerminalReason {
  let fd: number;
  try {
    fd = openSync("/dev/tty", "r+");
  } catch {
    return "none";
  }
  return {
    read: (buffer) =>
      new Promise<number | null>((resolve, reject) => {
        readFd(fd, buffer, 0, buffer.length, null, (error, n) => {
          if (error) reject(error);
          else resolve(n === 0 ? null : n);
        });
      }),
    writeSync: (bytes) => writeSync(fd, bytes),
    close: () => closeSync(fd),
  };
}
