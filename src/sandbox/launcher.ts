/**
 * The kernel layer's launcher (Linux, internal): a short-lived `deno run`
 * that calls Landlock through libc (Deno FFI), then replaces itself with the
 * tool's `deno run` (`execve`), which starts — and stays — restricted.
 *
 * - `launcher.ts probe`: prints `{"abi": N}` (the kernel's Landlock ABI
 *   version, or null) on stdout.
 * - `launcher.ts exec <policy JSON> <program> [args…]`: builds the ruleset of
 *   the {@link KernelPolicy}, sets `no_new_privs`, restricts itself, sets the
 *   policy's data limit (`memoryMb`), and executes `program` with the same
 *   environment. On any failure it prints `magi-tools kernel sandbox: <reason>`
 *   on stderr and exits with `LAUNCH_FAILED` (86); the tool's process never
 *   starts unrestricted.
 * - `launcher.ts limit <MiB> <program> [args…]`: only the data limit, no
 *   Landlock (a tool with `memoryMb` where the kernel layer is not used).
 *
 * The data limit (`RLIMIT_DATA`, which the kernel checks on every mapping of
 * private writable memory: the JavaScript heap, `ArrayBuffer`s, thread stacks,
 * `malloc`) is this process's own data size when it executes `program` plus
 * `memoryMb`. A fresh Deno process has about the same fixed reservation as
 * this one (V8's code range, 512 MiB of address space on x86_64 that is not
 * resident), so what counts against `memoryMb` is what the tool's process maps
 * beyond it. Measured, not assumed: the reservation differs between V8
 * versions and architectures.
 *
 * Why a launcher and not a restriction inside the tool process: Landlock's
 * `restrict_self` applies to the calling thread (and threads it creates
 * later), while a Deno process already runs worker threads (the blocking
 * pool that serves async file operations) before any module code runs, and
 * those would stay unrestricted. After `execve` the new program has a single
 * thread that inherited the restriction; every thread and subprocess it
 * creates inherits it too. The launcher's FFI permission ends with it: the
 * tool's process gets only the tool's declared flags.
 *
 * @module
 */

import type { KernelPolicy } from "./kernel_policy.ts";
import { CERTIFICATE_VARIABLES, LAUNCH_ERROR_PREFIX, LAUNCH_FAILED } from "./kernel_constants.ts";

const SYS_CREATE_RULESET = 444n;
const SYS_ADD_RULE = 445n;
const SYS_RESTRICT_SELF = 446n;
const CREATE_RULESET_VERSION = 1;
const PR_SET_NO_NEW_PRIVS = 38;
const RULE_PATH_BENEATH = 1;
const RULE_NET_PORT = 2;
const RLIMIT_DATA = 2;

/** `LANDLOCK_ACCESS_FS_*`. */
const FS = {
  EXECUTE: 1n << 0n,
  WRITE_FILE: 1n << 1n,
  READ_FILE: 1n << 2n,
  READ_DIR: 1n << 3n,
  REMOVE_DIR: 1n << 4n,
  REMOVE_FILE: 1n << 5n,
  MAKE_CHAR: 1n << 6n,
  MAKE_DIR: 1n << 7n,
  MAKE_REG: 1n << 8n,
  MAKE_SOCK: 1n << 9n,
  MAKE_FIFO: 1n << 10n,
  MAKE_BLOCK: 1n << 11n,
  MAKE_SYM: 1n << 12n,
  REFER: 1n << 13n,
  TRUNCATE: 1n << 14n,
  IOCTL_DEV: 1n << 15n,
} as const;

/** Rights that apply to a file (not only to a directory). */
const FILE_RIGHTS = FS.EXECUTE | FS.WRITE_FILE | FS.READ_FILE | FS.TRUNCATE | FS.IOCTL_DEV;
const READ = FS.READ_FILE | FS.READ_DIR;
const EXEC = READ | FS.EXECUTE;
/**
 * Writing, plus listing (not reading) the scope so a recursive removal works. Never
 * MAKE_CHAR/MAKE_BLOCK (a device node would reach any disk) nor IOCTL_DEV.
 */
const WRITE = FS.READ_DIR | FS.WRITE_FILE | FS.REMOVE_DIR | FS.REMOVE_FILE | FS.MAKE_DIR |
  FS.MAKE_REG |
  FS.MAKE_SOCK | FS.MAKE_FIFO | FS.MAKE_SYM | FS.REFER | FS.TRUNCATE;
const DEVICE = FS.READ_FILE | FS.WRITE_FILE;

/** `LANDLOCK_ACCESS_NET_*` (ABI 4). */
const NET_BIND_TCP = 1n << 0n;
const NET_CONNECT_TCP = 1n << 1n;
/** `LANDLOCK_SCOPE_*` (ABI 6): abstract Unix sockets and signals outside the domain. */
const SCOPES = (1n << 0n) | (1n << 1n);

/** The file system rights an ABI version handles. */
function handledFs(abi: number): bigint {
  let rights = (1n << 13n) - 1n; // ABI 1: EXECUTE … MAKE_SYM
  if (abi >= 2) rights |= FS.REFER;
  if (abi >= 3) rights |= FS.TRUNCATE;
  if (abi >= 5) rights |= FS.IOCTL_DEV;
  return rights;
}

class LaunchError extends Error {
  override name = "LaunchError";
}

const SYMBOLS = {
  create_ruleset: { name: "syscall", parameters: ["i64", "buffer", "u64", "u32"], result: "i64" },
  add_rule: { name: "syscall", parameters: ["i64", "i32", "u32", "buffer", "u32"], result: "i64" },
  restrict_self: { name: "syscall", parameters: ["i64", "i32", "u32"], result: "i64" },
  prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
  open: { parameters: ["buffer", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  execve: { parameters: ["buffer", "buffer", "pointer"], result: "i32" },
  setrlimit: { parameters: ["i32", "buffer"], result: "i32" },
  read: { parameters: ["i32", "buffer", "u64"], result: "i64" },
  strerror: { parameters: ["i32"], result: "pointer" },
  __errno_location: { parameters: [], result: "pointer" },
  environ: { type: "pointer" },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

function openLibc(): Libc {
  const errors: string[] = [];
  for (const name of ["libc.so.6", "libc.so", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1"]) {
    try {
      return Deno.dlopen(name, SYMBOLS).symbols;
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  throw new LaunchError(`cannot load the C library: ${errors[0]}`);
}

/** `O_*` flags of `open(2)`; `O_DIRECTORY` differs between x86_64 and aarch64. */
function openFlags(): { path: number; directory: number } {
  const O_PATH = 0o10000000;
  const O_CLOEXEC = 0o2000000;
  const directory = Deno.build.arch === "aarch64" ? 0o40000 : 0o200000;
  return { path: O_PATH | O_CLOEXEC, directory };
}

const encoder = new TextEncoder();
const cString = (text: string) => encoder.encode(`${text}\0`);

class Landlock {
  readonly #libc: Libc;
  constructor(libc: Libc) {
    this.#libc = libc;
  }

  errno(): number {
    return new Deno.UnsafePointerView(this.#libc.__errno_location()!).getInt32();
  }

  describe(errno: number): string {
    const text = this.#libc.strerror(errno);
    return text === null ? `errno ${errno}` : Deno.UnsafePointerView.getCString(text);
  }

  /** The kernel's Landlock ABI version, or null (no Landlock). */
  abi(): number | null {
    if (Deno.build.os !== "linux") return null;
    const version = Number(
      this.#libc.create_ruleset(SYS_CREATE_RULESET, null, 0n, CREATE_RULESET_VERSION),
    );
    return version > 0 ? version : null;
  }

  /**
   * Build and enforce the ruleset of `policy` on this thread. `program` (the executable the
   * launcher runs next) must get its rule: without it `execve` could only fail.
   */
  restrict(
    policy: KernelPolicy,
    abi: number,
    env: (name: string) => string | undefined,
    program: string,
  ): void {
    const fsRights = handledFs(abi);
    const restrictNet = abi >= 4 && policy.tcpPorts !== null;
    const attr = new BigUint64Array([
      fsRights,
      restrictNet ? NET_BIND_TCP | NET_CONNECT_TCP : 0n,
      abi >= 6 ? SCOPES : 0n,
    ]);
    const size = abi >= 6 ? 24n : abi >= 4 ? 16n : 8n;
    const ruleset = Number(this.#libc.create_ruleset(SYS_CREATE_RULESET, attr, size, 0));
    if (ruleset < 0) this.#fail("landlock_create_ruleset");
    const allow = (path: string, rights: bigint) =>
      this.#allowPath(ruleset, path, rights & fsRights);
    for (const path of policy.read) allow(path, READ);
    for (const path of policy.exec) allow(path, EXEC);
    if (!allow(program, EXEC)) {
      throw new LaunchError(`${program} cannot be opened: ${this.describe(this.errno())}`);
    }
    for (const path of policy.write) allow(path, WRITE);
    for (const path of policy.devices) allow(path, DEVICE);
    for (const name of policy.programs) {
      // The first match on PATH, as Deno finds it; none: the tool cannot start it anyway.
      (env("PATH") ?? "/usr/local/bin:/usr/bin:/bin").split(":")
        .filter((dir) => dir.startsWith("/"))
        .find((dir) => this.#allowPath(ruleset, `${dir}/${name}`, EXEC & fsRights));
    }
    // CA bundles Deno loads at startup when these name them (public certificates).
    for (const name of CERTIFICATE_VARIABLES) {
      const path = env(name);
      if (path !== undefined && path.startsWith("/")) allow(path, READ);
    }
    // Only the cache entries of this tool's own module graph (its emitted JavaScript, its npm
    // packages), never all of DENO_DIR: `gen/` holds every project's transpiled sources.
    if (policy.denoCache.length > 0) {
      const home = env("HOME");
      const cache = env("XDG_CACHE_HOME") ?? (home === undefined ? undefined : `${home}/.cache`);
      const denoDir = env("DENO_DIR") ?? (cache === undefined ? undefined : `${cache}/deno`);
      if (denoDir !== undefined) {
        for (const entry of policy.denoCache) allow(`${denoDir}/${entry}`, READ);
      }
    }
    if (restrictNet) {
      for (const port of policy.tcpPorts!) {
        const rule = new BigUint64Array([NET_BIND_TCP | NET_CONNECT_TCP, BigInt(port)]);
        const added = this.#libc.add_rule(SYS_ADD_RULE, ruleset, RULE_NET_PORT, rule, 0);
        if (added < 0) this.#fail(`landlock_add_rule (TCP port ${port})`);
      }
    }
    if (this.#libc.prctl(PR_SET_NO_NEW_PRIVS, 1n, 0n, 0n, 0n) !== 0) this.#fail("prctl");
    if (this.#libc.restrict_self(SYS_RESTRICT_SELF, ruleset, 0) < 0) {
      this.#fail("landlock_restrict_self");
    }
    this.#libc.close(ruleset);
  }

  /**
   * Cap this process's data size (`RLIMIT_DATA`, soft and hard: the tool cannot raise it) at
   * its current size plus `mib`; inherited through `execve`.
   */
  limitData(mib: number, currentKiB = this.dataKiB()): void {
    if (!(Number.isInteger(mib) && mib > 0)) throw new LaunchError(`invalid memory limit ${mib}`);
    const bytes = (BigInt(currentKiB) * 1024n) + BigInt(mib) * 1024n * 1024n;
    if (this.#libc.setrlimit(RLIMIT_DATA, new BigUint64Array([bytes, bytes])) !== 0) {
      this.#fail("setrlimit RLIMIT_DATA");
    }
  }

  /** `VmData` of this process (KiB), read through libc: Deno refuses `/proc` without -A. */
  dataKiB(): number {
    const O_RDONLY_CLOEXEC = 0o2000000;
    const fd = this.#libc.open(cString("/proc/self/status"), O_RDONLY_CLOEXEC);
    if (fd < 0) this.#fail("open /proc/self/status");
    const buffer = new Uint8Array(8192);
    let used = 0;
    for (;;) {
      const count = Number(
        this.#libc.read(fd, buffer.subarray(used), BigInt(buffer.length - used)),
      );
      if (count <= 0) break;
      used += count;
    }
    this.#libc.close(fd);
    const match = /^VmData:\s+(\d+) kB$/m.exec(new TextDecoder().decode(buffer.subarray(0, used)));
    if (match === null) throw new LaunchError("no VmData in /proc/self/status");
    return Number(match[1]);
  }

  /** Replace this process with `argv[0]`, same environment. Returns only on failure. */
  exec(argv: readonly string[]): never {
    const strings = argv.map(cString);
    const pointers = new BigUint64Array(strings.length + 1);
    strings.forEach((bytes, i) => {
      pointers[i] = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(bytes)));
    });
    const environ = new Deno.UnsafePointerView(this.#libc.environ!).getPointer();
    this.#libc.execve(strings[0]!, pointers, environ);
    this.#fail(`execve ${argv[0]}`);
  }

  /**
   * Add a path rule; false when the path does not exist (or cannot be opened).
   *
   * Whether `path` is a directory is decided by which `open` succeeds, never by `errno`:
   * reading `errno` is a second FFI call, and anything the runtime does on this thread
   * between the two calls (a garbage collection, say) may overwrite it. A directory rule
   * that fails for any reason is retried as a file rule, whose rights are a subset.
   */
  #allowPath(ruleset: number, path: string, rights: bigint): boolean {
    if (rights === 0n) return false;
    const flags = openFlags();
    let fd = this.#libc.open(cString(path), flags.path | flags.directory);
    let fileRights = rights;
    if (fd < 0) {
      // Not a directory, missing (ENOENT) or unreachable (EACCES, ELOOP): a file, or nothing.
      fd = this.#libc.open(cString(path), flags.path);
      if (fd < 0) return false;
      fileRights = rights & FILE_RIGHTS;
      if (fileRights === 0n) {
        this.#libc.close(fd);
        return false;
      }
    }
    const attr = new DataView(new ArrayBuffer(12)); // struct landlock_path_beneath_attr (packed)
    attr.setBigUint64(0, fileRights, true);
    attr.setInt32(8, fd, true);
    const added = this.#libc.add_rule(
      SYS_ADD_RULE,
      ruleset,
      RULE_PATH_BENEATH,
      new Uint8Array(attr.buffer),
      0,
    );
    const errno = added < 0 ? this.errno() : 0;
    this.#libc.close(fd);
    if (added < 0) throw new LaunchError(`landlock_add_rule ${path}: ${this.describe(errno)}`);
    return true;
  }

  #fail(what: string): never {
    throw new LaunchError(`${what}: ${this.describe(this.errno())}`);
  }
}

function fail(message: string): never {
  Deno.stderr.writeSync(encoder.encode(`${LAUNCH_ERROR_PREFIX}${message}\n`));
  Deno.exit(LAUNCH_FAILED);
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

function main(args: readonly string[]): void {
  const [mode, ...rest] = args;
  if (mode === "probe") {
    let abi: number | null = null;
    try {
      abi = new Landlock(openLibc()).abi();
    } catch {
      abi = null;
    }
    Deno.stdout.writeSync(encoder.encode(`${JSON.stringify({ abi })}\n`));
    return;
  }
  if ((mode !== "exec" && mode !== "limit") || rest.length < 2) {
    fail("usage: launcher.ts exec <policy> <program> … | limit <MiB> <program> …");
  }
  try {
    if (mode === "limit") {
      const landlock = new Landlock(openLibc());
      landlock.limitData(Number(rest[0]));
      landlock.exec(rest.slice(1));
    }
    const policy = JSON.parse(rest[0]!) as KernelPolicy;
    const landlock = new Landlock(openLibc());
    const abi = landlock.abi();
    if (abi === null) throw new LaunchError("the kernel has no Landlock");
    if (abi < policy.minAbi) {
      throw new LaunchError(`Landlock ABI ${abi} is older than ${policy.minAbi}`);
    }
    // Measured before the ruleset, which does not grant /proc/self/status.
    const dataKiB = policy.memoryMb === null ? 0 : landlock.dataKiB();
    landlock.restrict(policy, abi, env, rest[1]!);
    if (policy.memoryMb !== null) landlock.limitData(policy.memoryMb, dataKiB);
    landlock.exec(rest.slice(1));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

if (import.meta.main) main(Deno.args);
