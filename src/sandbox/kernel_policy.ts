/**
 * The kernel layer of the tool sandbox as plain data: which paths a tool
 * process may read, execute and write under Landlock, which TCP ports it may
 * connect to, and the enforcement level each tool gets. Pure functions, no
 * `Deno.*`: the host computes a {@link KernelPolicy}, the launcher
 * (`launcher.ts`) applies it before it executes the tool's `deno run`.
 *
 * @module
 */

import { dirname, isAbsolute, join, resolve } from "node:path";
import type { ToolInfo, ToolPermissions } from "../tool/define.ts";
import { isolationOf } from "./permissions.ts";

export { CERTIFICATE_VARIABLES, LAUNCH_ERROR_PREFIX, LAUNCH_FAILED } from "./kernel_constants.ts";

/**
 * How a tool's declared permissions are enforced:
 * - `kernel+deno`: its own process, Deno's permission checks, and under them a Landlock
 *   ruleset (Linux) that checks every file the process or its subprocesses open by the
 *   object it resolves to;
 * - `deno`: its own process with Deno's permission checks only (no Landlock: not Linux, an
 *   older kernel, or `--no-kernel-sandbox`);
 * - `none`: inside the host process (`isolation: "inline"`, or Node.js), with the host's
 *   permissions.
 */
export type SandboxLevel = "kernel+deno" | "deno" | "none";

/** Every level, strongest first. */
export const SANDBOX_LEVELS: readonly SandboxLevel[] = Object.freeze([
  "kernel+deno",
  "deno",
  "none",
]);

/**
 * The lowest Landlock ABI the kernel layer uses: ABI 3 is the first that
 * controls truncation (`LANDLOCK_ACCESS_FS_TRUNCATE`); below it a process
 * could truncate any file it may open, so the write scope would not hold.
 */
export const MIN_LANDLOCK_ABI = 3;

/** Whether the kernel layer can be used, as the host found out at startup. */
export interface KernelSupport {
  /** The kernel's Landlock ABI version, or null when there is none (or it is not Linux). */
  readonly abi: number | null;
  /** Whether the layer is used: `abi >= MIN_LANDLOCK_ABI` and not switched off. */
  readonly available: boolean;
  /** Why it is not used (null when it is): shown by `tools` and `--require-kernel-sandbox`. */
  readonly reason: string | null;
}

/** {@link KernelSupport} for a runtime or kernel without the layer. */
export function kernelUnavailable(reason: string, abi: number | null = null): KernelSupport {
  return { abi, available: false, reason };
}

/** {@link KernelSupport} from a probed ABI version (null: no Landlock). */
export function kernelSupportFromAbi(abi: number | null): KernelSupport {
  if (abi === null || abi < 1) {
    return kernelUnavailable("the kernel has no Landlock (Linux 5.13+ with landlock in lsm=)");
  }
  if (abi < MIN_LANDLOCK_ABI) {
    return kernelUnavailable(
      `the kernel's Landlock ABI ${abi} is older than ${MIN_LANDLOCK_ABI} (no truncate control)`,
      abi,
    );
  }
  return { abi, available: true, reason: null };
}

/**
 * The enforcement level of `tool`: `none` inline (or without a process sandbox),
 * `kernel+deno` in its own process where the kernel layer is available, else `deno`.
 */
export function sandboxLevel(
  tool: Pick<ToolInfo, "isolation">,
  kernel: KernelSupport,
  processIsolation = true,
): SandboxLevel {
  if (!processIsolation || isolationOf(tool) === "inline") return "none";
  return kernel.available ? "kernel+deno" : "deno";
}

/** Why `tool` does not get `kernel+deno` (null when it does), for error messages. */
export function weakerLevelReason(
  tool: Pick<ToolInfo, "isolation">,
  kernel: KernelSupport,
  processIsolation = true,
): string | null {
  if (!processIsolation) return "this runtime has no process sandbox (every tool runs inline)";
  if (isolationOf(tool) === "inline") return "isolation: inline (it runs in the host process)";
  return kernel.available ? null : kernel.reason ?? "the kernel layer is not available";
}

/**
 * What the launcher applies. Paths are absolute; a path that does not
 * exist when the process starts gets no rule (Landlock rules name existing
 * files), so it stays inaccessible to that process.
 */
export interface KernelPolicy {
  /** Readable files and directories (recursive): read files, list directories. */
  readonly read: readonly string[];
  /** Readable and executable (system programs and libraries, the Deno executable). */
  readonly exec: readonly string[];
  /**
   * Writable: create, write, truncate, rename within, remove; directories also listable (a
   * recursive removal lists them), files not readable by this alone.
   */
  readonly write: readonly string[];
  /** Device files opened for reading and writing (`/dev/null`). */
  readonly devices: readonly string[];
  /** Program names (no `/`) resolved on `PATH` by the launcher, each made executable. */
  readonly programs: readonly string[];
  /**
   * Entries of Deno's cache directory made readable, relative to `DENO_DIR` (the launcher
   * finds it as Deno does): the emitted JavaScript of the tool's own modules
   * (`gen/file/<path>.js`); never the whole directory, whose `gen/` holds every project's
   * transpiled sources. (npm packages and cached remote modules are absolute `read` paths.)
   */
  readonly denoCache: readonly string[];
  /** The process's memory cap in MiB (`RLIMIT_DATA` beyond Deno's own reservation), or null. */
  readonly memoryMb: number | null;
  /**
   * TCP ports the process may connect to (and bind), where the kernel can restrict TCP
   * (Landlock ABI 4+); null: TCP is not restricted by the kernel (`net: true`, or an entry
   * without a port).
   */
  readonly tcpPorts: readonly number[] | null;
  /** The launcher refuses to start the tool below this ABI. */
  readonly minAbi: number;
}

/** What the host knows about Deno and magi-tools when it builds a policy. */
export interface PolicyContext {
  /** The host's working directory (relative entries resolve against it). */
  readonly cwd: string;
  /** The Deno executable the tool process runs. */
  readonly denoPath: string;
  /** Local module files the tool process loads (the tool module's graph). */
  readonly moduleFiles: readonly string[];
  /** Directories of magi-tools' own modules (the runner and what it imports). */
  readonly packageDirs: readonly string[];
  /** Configuration files Deno reads at startup (`deno.json`, `deno.lock`, …) if any. */
  readonly configFiles?: readonly string[];
  /** Further entries of Deno's cache directory (relative to it), e.g. `remote` for JSR. */
  readonly denoCache?: readonly string[];
  /** The tool's `memoryMb`. */
  readonly memoryMb?: number;
}

/**
 * Where Deno caches the JavaScript it emits for the local module or directory `path`,
 * relative to `DENO_DIR` (Deno 2: `gen/file/<absolute path>.js`; a directory's emits are
 * below `gen/file/<absolute path>`).
 *
 * @example
 * ```ts
 * import { emitCacheEntry } from "./kernel_policy.ts";
 * console.assert(emitCacheEntry("/w/tools/a.ts", false) === "gen/file/w/tools/a.ts.js");
 * console.assert(emitCacheEntry("/w/src/", true) === "gen/file/w/src");
 * ```
 */
export function emitCacheEntry(path: string, directory: boolean): string {
  const clean = resolve(path);
  return `gen/file${clean}${directory ? "" : ".js"}`;
}

/** Libraries and the dynamic loader: every dynamically linked program (Deno too) maps them. */
const SYSTEM_LIBRARIES = ["/lib", "/lib64", "/lib32", "/usr/lib", "/usr/lib64", "/usr/lib32"];
/** Read by the dynamic loader and by Deno's time zone support. */
const SYSTEM_FILES = ["/etc/ld.so.cache", "/etc/localtime", "/usr/share/zoneinfo"];
/**
 * Deno's stack-limit check reads its own memory map (`/proc/self/maps`; without it Deno
 * panics); the rule names this process's file, which `execve` keeps. Nothing else of
 * `/proc` is granted (not `environ`, not `mem`).
 */
const PROC_FILES = ["/proc/self/maps"];
/** Read-only devices nothing secret comes from. */
const DEVICES_READ = ["/dev/urandom", "/dev/random", "/dev/zero"];
/** What programs started through `run` commonly need beyond libraries. */
const RUN_EXEC = ["/usr", "/bin", "/sbin"];
const RUN_READ = ["/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/alternatives"];
/** Name resolution and the system CA store, for tools that declare `net`. */
const NET_READ = [
  "/etc/resolv.conf",
  "/etc/hosts",
  "/etc/nsswitch.conf",
  "/etc/host.conf",
  "/etc/gai.conf",
  "/etc/services",
  "/etc/ssl/certs",
  "/etc/ssl/cert.pem",
  "/etc/pki/tls/certs",
  "/usr/share/ca-certificates",
];

function absolute(entry: string, cwd: string): string {
  return isAbsolute(entry) ? resolve(entry) : resolve(cwd, entry);
}

function listOf(grant: boolean | readonly string[] | undefined): readonly string[] {
  return Array.isArray(grant) ? grant : [];
}

/**
 * The TCP ports of declared `net` entries, or null when the kernel cannot
 * express the grant: `net: true`, or an entry without a port (any port of
 * that host). Deno still checks the host; the kernel checks only the port.
 *
 * @example
 * ```ts
 * import { netPorts } from "./kernel_policy.ts";
 * console.assert(netPorts(["127.0.0.1:8765", "[::1]:443"])?.join() === "8765,443");
 * console.assert(netPorts(["example.com"]) === null);
 * ```
 */
export function netPorts(grant: boolean | readonly string[] | undefined): number[] | null {
  if (grant === true) return null;
  const ports = new Set<number>();
  for (const entry of listOf(grant)) {
    const match = /^(?:\[[^\]]*\]|[^:[\]]*):(\d{1,5})$/.exec(entry.trim());
    if (match === null) return null;
    const port = Number(match[1]);
    if (!(port >= 0 && port <= 65_535)) return null;
    ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

/** Ancestors of `dir` (itself first). */
function ancestors(dir: string): string[] {
  const out: string[] = [];
  for (let at = resolve(dir);; at = dirname(at)) {
    out.push(at);
    if (dirname(at) === at) return out;
  }
}

/**
 * What Deno may read at startup to find its configuration and packages next to `dir` or
 * above it: `deno.json`, `deno.jsonc`, `deno.lock`, `package.json`, `node_modules`.
 */
export function configCandidates(dir: string): string[] {
  const names = ["deno.json", "deno.jsonc", "deno.lock", "package.json", "node_modules"];
  return ancestors(dir).flatMap((at) => names.map((name) => join(at, name)));
}

/**
 * The Landlock policy of one process-isolated tool: its declared `read`,
 * `write`, `run`, `ffi` and `net` (ports) plus what Deno itself needs to
 * start and run the tool (see `docs/tools.md`, "The kernel layer").
 */
export function kernelPolicy(
  permissions: ToolPermissions | undefined,
  context: PolicyContext,
): KernelPolicy {
  const { cwd } = context;
  const read = new Set<string>();
  const exec = new Set<string>();
  const write = new Set<string>();
  const programs = new Set<string>();
  for (const entry of listOf(permissions?.read)) read.add(absolute(entry, cwd));
  for (const entry of listOf(permissions?.write)) write.add(absolute(entry, cwd));
  // A native library is mapped from its file.
  for (const entry of listOf(permissions?.ffi)) read.add(absolute(entry, cwd));
  const denoCache = new Set<string>(context.denoCache ?? []);
  for (const file of context.moduleFiles) {
    read.add(file);
    if (/\.[cm]?[jt]sx?$/.test(file)) denoCache.add(emitCacheEntry(file, false));
  }
  for (const dir of context.packageDirs) {
    read.add(dir);
    denoCache.add(emitCacheEntry(dir, true));
  }
  for (const file of context.configFiles ?? []) read.add(file);
  for (const file of [...SYSTEM_FILES, ...PROC_FILES, ...DEVICES_READ]) read.add(file);
  exec.add(context.denoPath);
  for (const dir of SYSTEM_LIBRARIES) exec.add(dir);
  const run = listOf(permissions?.run);
  if (run.length > 0) {
    for (const dir of RUN_EXEC) exec.add(dir);
    for (const file of RUN_READ) read.add(file);
    for (const entry of run) {
      if (entry.includes("/")) exec.add(absolute(entry, cwd));
      else programs.add(entry);
    }
  }
  const net = permissions?.net;
  if (net === true || listOf(net).length > 0) { for (const file of NET_READ) read.add(file); }
  return {
    read: [...read],
    exec: [...exec],
    write: [...write],
    devices: ["/dev/null"],
    programs: [...programs],
    denoCache: [...denoCache],
    memoryMb: context.memoryMb ?? null,
    tcpPorts: netPorts(net),
    minAbi: MIN_LANDLOCK_ABI,
  };
}
