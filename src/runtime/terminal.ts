/**
 * Where `--approve ask` prompts (Deno): on stdin and stderr when both are a
 * terminal, which needs no permission; else on `/dev/tty`, which Deno opens
 * only with `--allow-all` ("Requires all access"). The question never goes
 * to stdout, which carries NDJSON or the transcript view.
 *
 * @module
 */

import { LineReader } from "./_line_reader.ts";
import type { TerminalOpening } from "./types.ts";

const encoder = new TextEncoder();

function writeAll(write: (bytes: Uint8Array) => number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += write(bytes.subarray(offset));
}

function readerOf(file: { read(buffer: Uint8Array): Promise<number | null> }): LineReader {
  return new LineReader(async () => {
    const buffer = new Uint8Array(256);
    const n = await file.read(buffer);
    return n === null ? null : buffer.subarray(0, n);
  });
}

/**
 * Open a terminal for prompts: stdin and stderr when both are terminals, else
 * `/dev/tty`; when neither works, the reason (see {@link TerminalOpening}).
 */
export function openTerminal(): TerminalOpening {
  if (Deno.stdin.isTerminal() && Deno.stderr.isTerminal()) {
    const lines = readerOf(Deno.stdin);
    return {
      terminal: {
        ask(question: string): Promise<string | null> {
          writeAll((bytes) => Deno.stderr.writeSync(bytes), encoder.encode(question));
          return lines.next();
        },
        close() {
          // stdin and stderr stay open: the process owns them.
        },
      },
    };
  }
  let file: Deno.FsFile;
  try {
    file = Deno.openSync("/dev/tty", { read: true, write: true });
  } catch (error) {
    return {
      terminal: null,
      reason: error instanceof Deno.errors.NotCapable ? "not_permitted" : "none",
    };
  }
  const lines = readerOf(file);
  return {
    terminal: {
      ask(question: string): Promise<string | null> {
        writeAll((bytes) => file.writeSync(bytes), encoder.encode(question));
        return lines.next();
      },
      close() {
        try {
          file.close();
        } catch {
          // Already closed.
        }
      },
    },
  };
}
