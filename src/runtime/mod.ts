/**
 * The runtime adapter: the only module the host, client and CLI use for
 * processes, env, signals, files and standard streams. Written once over a
 * set of primitives (`Runtime`, `types.ts`): `policy.ts` holds what is
 * more than one call (stop requests, stderr lines, stdin text, the path
 * search, private files, the prompt terminal), `system.ts` the single calls.
 * The primitives come from `deno/mod.ts`; the npm build swaps that one module
 * for `node/mod.ts`. `terminal_text.ts` says how text the host did not write
 * reaches a terminal.
 *
 * @module
 */

export {
  findOnPath,
  isDirectory,
  onInterrupt,
  openTerminal,
  readStdinText,
  removeAll,
  stopSignal,
  userDir,
  type UserDirKind,
  writePrivateTextFile,
  writeStderrLine,
} from "./policy.ts";
export { reapChild, type ReapOptions } from "./reap.ts";
export * from "./system.ts";
export * from "../text/terminal_text.ts";
export {
  type ChildHandle,
  type DirWatch,
  type ExitInfo,
  type FileInfo,
  type FileLock,
  type LoopbackServer,
  type NoTerminalReason,
  type RuntimeName,
  SpawnError,
  type SpawnOptions,
  type StopSignal,
  type Terminal,
  type TerminalOpening,
  type WatchEvent,
} from "./types.ts";
