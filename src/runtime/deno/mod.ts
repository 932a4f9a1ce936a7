/**
 * The runtime adapter for Deno: the primitives of {@link Runtime}, one call
 * each into `Deno.*` (`../policy.ts` and `../system.ts` build the exported
 * functions on them). The npm build (`npm-build.ts`) swaps this module for
 * `../node/mod.ts`; only `../system.ts` and `../policy.ts` import it.
 *
 * @module
 */

import type {
  DirWatch,
  FileInfo,
  LoopbackHandler,
  LoopbackServer,
  Runtime,
  StopSignal,
} from "../types.ts";
import { hostName, tryLockFile } from "./file_lock.ts";
import { spawnChild } from "./process.ts";
import { openTty } from "./terminal.ts";

/** SIGTERM listeners cannot be added on Windows (Deno has SIGINT and SIGBREAK there). */
const HEARD: readonly StopSignal[] = Deno.build.os === "windows" ? ["SIGINT"] : [
  "SIGINT",
  "SIGTERM",
];

function serveLoopback(handler: LoopbackHandler, port: number): LoopbackServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}`, stop: () => server.shutdown() };
}

function watchDirs(dirs: readonly string[], recursive: boolean): DirWatch {
  const watcher = Deno.watchFs([...dirs], { recursive });
  return {
    close: () => watcher.close(),
    async *[Symbol.asyncIterator]() {
      for await (const event of watcher) {
        yield { kind: event.kind === "access" ? "access" : "other", paths: event.paths };
      }
    },
  };
}

const STREAMS = { stdin: Deno.stdin, stdout: Deno.stdout, stderr: Deno.stderr } as const;

/** Deno's primitives. */
export const runtime: Runtime = {
  name: "deno",
  os: Deno.build.os,
  processIsolation: true,
  env: (name) => Deno.env.get(name),
  envIfGranted(name) {
    const state = Deno.permissions.querySync({ name: "env", variable: name }).state;
    return state === "granted" ? Deno.env.get(name) : undefined;
  },
  setEnv: (name, value) => Deno.env.set(name, value),
  deleteEnv: (name) => Deno.env.delete(name),
  cwd: () => Deno.cwd(),
  args: () => [...Deno.args],
  exit: (code) => Deno.exit(code),
  execPath: () => Deno.execPath(),
  pid: () => Deno.pid,
  ppid: () => Deno.ppid,
  hostName,
  unrefTimer: (timer) => Deno.unrefTimer(timer as number),
  onSignal(signal, listener) {
    if (!HEARD.includes(signal)) return () => {};
    Deno.addSignalListener(signal, listener);
    return () => {
      try {
        Deno.removeSignalListener(signal, listener);
      } catch {
        // Already removed.
      }
    };
  },
  isTerminal: (stream) => STREAMS[stream].isTerminal(),
  stdin: () => Deno.stdin.readable,
  async writeStdout(bytes) {
    let offset = 0;
    while (offset < bytes.length) offset += await Deno.stdout.write(bytes.subarray(offset));
  },
  writeStderrSync: (bytes) => Deno.stderr.writeSync(bytes),
  openTty,
  readTextFile: (path) => Deno.readTextFile(path),
  writeTextFile: (path, text, mode) =>
    Deno.writeTextFile(path, text, mode === undefined ? {} : { mode }),
  makeDirs: (path, mode) => Deno.mkdir(path, { recursive: true, mode }),
  chmod: (path, mode) => Deno.chmod(path, mode),
  realPath: (path) => Deno.realPath(path),
  makeTempDir: (prefix) => Deno.makeTempDir({ prefix }),
  remove: (path) => Deno.remove(path, { recursive: true }),
  stat: async (path): Promise<FileInfo> => await Deno.stat(path),
  rename: (from, to) => Deno.rename(from, to),
  link: (existing, path) => Deno.link(existing, path),
  isNotFound: (error) => error instanceof Deno.errors.NotFound,
  isAlreadyExists: (error) => error instanceof Deno.errors.AlreadyExists,
  fileGranted: (access, path) =>
    Deno.permissions.querySync(path === undefined ? { name: access } : { name: access, path })
      .state === "granted",
  versions: () => Deno.version,
  watchDirs,
  tryLockFile,
  spawnChild,
  spawnDetached(command, args) {
    const child = new Deno.Command(command, {
      args: [...args],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    child.status.catch(() => {});
    child.unref();
  },
  serveLoopback,
  // Deno.serve reports a handler's failure itself (and answers 500).
  listenLoopback: (handler, port) => Promise.resolve().then(() => serveLoopback(handler, port)),
  isAddrInUse: (error) => error instanceof Deno.errors.AddrInUse,
};
