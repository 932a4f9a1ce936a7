/**
 * Launch checks for `serve --stdio`: the arguments and the kind of stdin/stdout.
 *
 * An invalid launch is reported on stderr and exits 2 before any runtime side effect.
 *
 * @module
 */

/** A launch problem, described for a person on stderr. */
export type LaunchCheck = { ok: true } | { ok: false; message: string };

/** Whether `args` is exactly `serve --stdio`. */
export function checkArguments(args: readonly string[]): LaunchCheck {
  if (args.length === 2 && args[0] === "serve" && args[1] === "--stdio") return { ok: true };
  return { ok: false, message: "Usage: reference backend serve --stdio (no other arguments)" };
}

/** The kind of file a standard stream is, as far as the launch check cares. */
export type StreamKind = "pipe" | "terminal" | "file" | "other" | "unknown";

/** Classify one standard stream from its device path (`/dev/stdin`, `/dev/stdout`). */
export function streamKind(path: string, isTerminal: boolean): StreamKind {
  if (isTerminal) return "terminal";
  try {
    const info = Deno.statSync(path);
    if (info.isFifo) return "pipe";
    if (info.isFile) return "file";
    return "other";
  } catch {
    return "unknown";
  }
}

/** Whether stdin and stdout are both Unix pipes, as the transport requires. */
export function checkStdio(kinds: { stdin: StreamKind; stdout: StreamKind }): LaunchCheck {
  for (const [name, kind] of Object.entries(kinds)) {
    if (kind !== "pipe") {
      return { ok: false, message: `The ${name} of serve --stdio must be a pipe: got ${kind}` };
    }
  }
  return { ok: true };
}
