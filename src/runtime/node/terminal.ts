/**
 * Where `--approve ask` prompts (Node.js): `/dev/tty`, which Node.js opens
 * without any permission model; the same exports as `../terminal.ts`.
 *
 * @module
 */

import { closeSync, openSync, read as readFd, writeSync } from "node:fs";
import { LineReader } from "../_line_reader.ts";
import type { TerminalOpening } from "../types.ts";

const encoder = new TextEncoder();

/** Open `/dev/tty` for prompts; reason `none` when there is no controlling terminal. */
export function openTerminal(): TerminalOpening {
  let fd: number;
  try {
    fd = openSync("/dev/tty", "r+");
  } catch {
    return { terminal: null, reason: "none" };
  }
  const lines = new LineReader(() =>
    new Promise<Uint8Array | null>((resolve, reject) => {
      const buffer = new Uint8Array(256);
      readFd(fd, buffer, 0, buffer.length, null, (error, n) => {
        if (error) reject(error);
        else resolve(n === 0 ? null : buffer.subarray(0, n));
      });
    })
  );
  return {
    terminal: {
      ask(question: string): Promise<string | null> {
        const bytes = encoder.encode(question);
        let offset = 0;
        while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
        return lines.next();
      },
      close() {
        try {
          closeSync(fd);
        } catch {
          // Already closed.
        }
      },
    },
  };
}
