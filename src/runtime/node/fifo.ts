/**
 * The stdio of a child on Node.js as real Unix pipes, as `magi-code serve --stdio` requires:
 * Node's own `"pipe"` stdio is a socket pair, so each stream is a FIFO made with `mkfifo(1)`
 * in a private temporary directory, opened on both ends and unlinked before the child starts
 * (the child sees an anonymous FIFO, like Deno's pipes). The parent's ends become Web Streams.
 *
 * @module
 */

import { execFileSync } from "node:child_process";
import { closeSync, constants as fsConstants, mkdtempSync, openSync, rmSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";

/** The FIFOs of one child: the child's ends and the parent's. */
export interface Pipes {
  /** Child stdin (read end), stdout and stderr (write ends); stderr only when piped. */
  child: [number, number, number | null];
  /** Parent ends: stdin (write), stdout (read), stderr (read) or null. */
  parent: [number, number, number | null];
}

/** Close each of `fds` (null: none) that is still open. */
export function closeAll(fds: (number | null)[]): void {
  for (const fd of fds) {
    if (fd === null) continue;
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
  }
}

/**
 * Make the child's stdio FIFOs. Every open is non-blocking in effect: a FIFO
 * end opens at once when the other end is already open, so each pair opens
 * its first end with `O_NONBLOCK` (the parent's end, or a throwaway reader).
 * The child's ends stay in blocking mode.
 */
export function makePipes(withStderr: boolean): Pipes {
  const { O_RDONLY, O_WRONLY, O_NONBLOCK } = fsConstants;
  const dir = mkdtempSync(join(tmpdir(), "magi-tools-pipes-"));
  const opened: number[] = [];
  const open = (path: string, flags: number) => {
    const fd = openSync(path, flags);
    opened.push(fd);
    return fd;
  };
  try {
    const names = withStderr ? ["in", "out", "err"] : ["in", "out"];
    execFileSync("mkfifo", ["-m", "600", ...names.map((name) => join(dir, name))]);
    const stdinPath = join(dir, "in");
    const probe = open(stdinPath, O_RDONLY | O_NONBLOCK);
    const parentIn = open(stdinPath, O_WRONLY);
    const childIn = open(stdinPath, O_RDONLY);
    closeSync(probe);
    opened.splice(opened.indexOf(probe), 1);
    const parentOut = open(join(dir, "out"), O_RDONLY | O_NONBLOCK);
    const childOut = open(join(dir, "out"), O_WRONLY);
    const parentErr = withStderr ? open(join(dir, "err"), O_RDONLY | O_NONBLOCK) : null;
    const childErr = withStderr ? open(join(dir, "err"), O_WRONLY) : null;
    return { child: [childIn, childOut, childErr], parent: [parentIn, parentOut, parentErr] };
  } catch (error) {
    closeAll(opened);
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The read end `fd` as a Web stream. */
export function webReadable(fd: number): ReadableStream<Uint8Array> {
  const socket = new Socket({ fd, readable: true, writable: false });
  return Readable.toWeb(socket) as unknown as ReadableStream<Uint8Array>;
}

/**
 * The write end `fd` as a Web stream (a broken pipe is reported by the stream), and the bytes it
 * took that have not yet reached the pipe: Node.js counts a chunk in `writableLength` from its
 * `write()` until the pipe took all of it, and writes in order (`ChildHandle.stdinUnflushed`).
 */
export function webWritable(
  fd: number,
): { stream: WritableStream<Uint8Array>; unflushed: () => number } {
  const socket = new Socket({ fd, readable: false, writable: true });
  // Writes after the child closed its stdin fail with EPIPE: the Web Stream reports it.
  socket.on("error", () => {});
  return {
    stream: Writable.toWeb(socket) as WritableStream<Uint8Array>,
    unflushed: () => socket.writableLength,
  };
}
