/**
 * The runtime adapter for Node.js: the primitives of {@link Runtime}, one call
 * each into `node:*`, the counterpart of `../deno/mod.ts`. The npm build
 * (`npm-build.ts`) resolves `../deno/mod.ts` to this file; nothing else
 * imports it but the parity test.
 *
 * @module
 */

import { spawn } from "node:child_process";
import { writeSync } from "node:fs";
import {
  chmod,
  link,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isatty } from "node:tty";
import type { Runtime } from "../types.ts";
import { hostName, tryLockFile } from "./file_lock.ts";
import { listenLoopback } from "./loopback.ts";
import { spawnChild } from "./process.ts";
import { openTty } from "./terminal.ts";
import { watchDirs } from "./watch.ts";

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

const FD = { stdin: 0, stdout: 1, stderr: 2 } as const;

/** Node's primitives. */
export const runtime: Runtime = {
  name: "node",
  os: process.platform === "win32" ? "windows" : process.platform,
  // Every tool runs inline in the host process.
  processIsolation: false,
  env: (name) => process.env[name],
  // Node.js has no env permission.
  envIfGranted: (name) => process.env[name],
  setEnv: (name, value) => void (process.env[name] = value),
  deleteEnv: (name) => void delete process.env[name],
  cwd: () => process.cwd(),
  args: () => process.argv.slice(2),
  exit: (code) => process.exit(code),
  execPath: () => process.execPath,
  pid: () => process.pid,
  ppid: () => process.ppid,
  hostName,
  unrefTimer: (timer) => (timer as { unref(): void }).unref(),
  onSignal(signal, listener) {
    process.on(signal, listener);
    return () => void process.off(signal, listener);
  },
  isTerminal: (stream) => isatty(FD[stream]),
  // Breaking off the iteration destroys the stream.
  stdin: () => process.stdin as AsyncIterable<Uint8Array>,
  writeStdout: (bytes) =>
    new Promise((resolve, reject) => {
      process.stdout.write(bytes, (error) => error ? reject(error) : resolve());
    }),
  writeStderrSync: (bytes) => writeSync(2, bytes),
  openTty,
  readTextFile: (path) => readFile(path, "utf8"),
  writeTextFile: (path, text, mode) =>
    writeFile(path, text, mode === undefined ? "utf8" : { encoding: "utf8", mode }),
  makeDirs: async (path, mode) => void await mkdir(path, { recursive: true, mode }),
  chmod: (path, mode) => chmod(path, mode),
  realPath: (path) => realpath(path),
  makeTempDir: (prefix) => mkdtemp(join(tmpdir(), prefix)),
  remove: (path) => rm(path, { recursive: true, force: true }),
  async stat(path) {
    const info = await stat(path);
    return { isFile: info.isFile(), isDirectory: info.isDirectory(), mode: info.mode };
  },
  rename: (from, to) => rename(from, to),
  link: (existing, path) => link(existing, path),
  isNotFound: (error) => codeOf(error) === "ENOENT",
  isAlreadyExists: (error) => codeOf(error) === "EEXIST",
  // Node.js has no file permissions of its own (its --permission model aside).
  fileGranted: () => true,
  versions: () => process.versions as Record<string, string>,
  watchDirs,
  tryLockFile,
  spawnChild,
  spawnDetached(command, args) {
    const child = spawn(command, [...args], { stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
  },
  serveLoopback() {
    throw new Error("Synchronous loopback server is not available on Node.js: use listenLoopback");
  },
  listenLoopback,
  isAddrInUse: (error) => codeOf(error) === "EADDRINUSE",
};
