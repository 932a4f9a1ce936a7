/**
 * Where `--approve ask` prompts, on Deno: stdin and stderr when both are a
 * terminal, which needs no permission; else `/dev/tty`, which Deno opens only
 * with `--allow-all` ("Requires all access"). The question never goes to
 * stdout, which carries NDJSON or the transcript view.
 *
 * @module
 */

import type { NoTerminalReason, TtyChannel } from "../types.ts";

/** stdin and stderr when both are terminals, else `/dev/tty`, else why neither works. */
export function openTty(): TtyChannel | NoTerminalReason {
  if (Deno.stdin.isTerminal() && Deno.stderr.isTerminal()) {
    return {
      read: (buffer) => Deno.stdin.read(buffer),
      writeSync: (bytes) => Deno.stderr.writeSync(bytes),
      close() {
        // stdin and stderr stay open: the process owns them.
      },
    };
  }
  let file: Deno.FsFile;
  try {
    file = Deno.openSync("/dev/tty", { read: true, write: true });
  } catch (error) {
    return error instanceof Deno.errors.NotCapable ? "not_permitted" : "none";
  }
  return {
    read: (buffer) => file.read(buffer),
    writeSync: (bytes) => file.writeSync(bytes),
    close: () => file.close(),
  };
}
