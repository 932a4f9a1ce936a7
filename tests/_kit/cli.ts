/**
 * The one runner of this checkout's CLI as a child process (test helper): `deno run` with the
 * full lockfile, from the repository root or any working directory, with the environment every
 * CLI test wants (no colours, no update check, the reference backend as the agent, self checks
 * on, a fresh `MC_HOME`), a kill guard that fails the test instead of hanging it, optional
 * stdin, and the NDJSON summary records parsed and validated as they arrive.
 *
 * @module
 */

import assert from "node:assert/strict";
import { SummaryRecordSchema } from "../../src/summary/records.ts";
import { eventually } from "../_wait.ts";
import { root } from "./root.ts";

/** The reference backend as an `--agent` command line. */
export const REFERENCE_AGENT =
  `${Deno.execPath()} run -A ${root}src/reference_backend/main.ts serve --stdio`;

/**
 * `deno run` flags of the full CLI run from this checkout: the root config with
 * `deno.full.lock`, which holds the MCP SDK and the OpenAPI packages besides the core's
 * (docs/packages.md).
 */
export const FULL_CLI: readonly string[] = [`--lock=${root}deno.full.lock`];

/** A summary record as parsed JSON. */
export type Rec = Record<string, unknown> & { type: string };

/** What one CLI run produced. */
export interface CliResult {
  readonly code: number;
  /** The summary records (with `records: true`; otherwise empty). */
  readonly records: Rec[];
  readonly stdout: string;
  readonly stderr: string;
}

/** How to start the CLI ({@link spawnCli}). */
export interface SpawnCliOptions {
  /** Variables added to the environment (over the defaults). */
  readonly env?: Record<string, string>;
  /**
   * `MC_HOME`: a folder (kept), `"inherit"` (the environment's, untouched), or by default a
   * fresh temporary folder removed after the run ({@link cli} only; {@link spawnCli} needs one).
   */
  readonly home?: string;
  /** Working directory; default the repository root. */
  readonly cwd?: string;
  /** The entry module, relative to the root: `mod.ts` (default) or `cli.ts`. */
  readonly entry?: "mod.ts" | "cli.ts";
  /** Permission flags of `deno run`; default `-A`. */
  readonly flags?: readonly string[];
  /** Pass `--config deno.json` of the checkout (needed with a `cwd` outside it). */
  readonly config?: boolean;
  /** Pass `--lock=deno.full.lock` of the checkout ({@link FULL_CLI}); default true. */
  readonly lock?: boolean;
  /** Run the command under this one (e.g. `["setsid"]`). */
  readonly wrap?: readonly string[];
  /** Pipe stdin (write it yourself); default no stdin. */
  readonly stdin?: boolean;
  /** `MAGI_BACKEND_SELF_CHECK=1`: the reference backend validates its own frames (default). */
  readonly backendSelfCheck?: boolean;
}

/** Options of {@link cli}. */
export interface CliOptions extends SpawnCliOptions {
  /** Parse stdout as NDJSON summary records, each validated ({@link CliResult.records}). */
  readonly records?: boolean;
  /**
   * With `records`: called for each record as it arrives, with a function sending SIGINT and
   * the child (to send another signal).
   */
  readonly onRecord?: (record: Rec, interrupt: () => void, child: Deno.ChildProcess) => void;
  /** Send SIGINT once this file exists (looked for until the CLI exits). */
  readonly interruptOnFile?: string;
  /** Written to stdin (then closed); default no stdin. */
  readonly input?: string;
  /** With `input`: stdin is closed once stdout so far passes this (default at once). */
  readonly closeWhen?: (stdout: string) => boolean;
  /** Kill the CLI after this long (a test failure, never a hang); default 60 s. */
  readonly killAfterMs?: number;
}

/**
 * The Deno cache this process uses (Deno's default on Linux unless `DENO_DIR` is set). Every CLI
 * child gets it: a test that moves `HOME` or `XDG_CACHE_HOME` would otherwise send the child's
 * Deno to an empty cache, downloading every package again for each run.
 */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache`}/deno`;

/** The environment of a CLI run (before `options.env`). */
function baseEnv(options: SpawnCliOptions): Record<string, string> {
  const home = options.home;
  return {
    NO_COLOR: "1",
    DENO_DIR,
    DENO_NO_UPDATE_CHECK: "1",
    MAGI_CODE_AGENT: REFERENCE_AGENT,
    MAGI_TOOLS_SELF_CHECK: "1",
    ...(options.backendSelfCheck === false ? {} : { MAGI_BACKEND_SELF_CHECK: "1" }),
    ...(home === undefined || home === "inherit" ? {} : { MC_HOME: home }),
  };
}

/** Start `deno run <flags> <entry> ...args` (see {@link SpawnCliOptions}); the caller reaps it. */
export function spawnCli(
  args: readonly string[],
  options: SpawnCliOptions = {},
): Deno.ChildProcess {
  const deno = [
    Deno.execPath(),
    "run",
    ...(options.config ? ["--config", `${root}deno.json`] : []),
    ...(options.lock === false ? [] : FULL_CLI),
    ...(options.flags ?? ["-A"]),
    `${root}${options.entry ?? "mod.ts"}`,
    ...args,
  ];
  const [program, ...rest] = [...(options.wrap ?? []), ...deno];
  return new Deno.Command(program!, {
    args: rest,
    cwd: options.cwd ?? root,
    stdin: options.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    env: { ...baseEnv(options), ...options.env },
  }).spawn();
}

/** Run the CLI to its end; see {@link CliOptions}. */
export async function cli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const fresh = options.home === undefined && options.env?.MC_HOME === undefined;
  const home = fresh ? await Deno.makeTempDir({ prefix: "magi-tools-cli-" }) : options.home;
  const child = spawnCli(args, {
    ...options,
    ...(home === undefined ? {} : { home }),
    stdin: options.input !== undefined,
  });
  let killed = false;
  let exited = false;
  const guard = setTimeout(() => {
    killed = true;
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, options.killAfterMs ?? 60_000);
  const interrupt = () => {
    try {
      child.kill("SIGINT");
    } catch { /* gone */ }
  };
  const onFile = options.interruptOnFile === undefined
    ? Promise.resolve()
    : whenFileExists(options.interruptOnFile, () => exited).then((found) => {
      if (found) interrupt();
    });

  const writer = options.input === undefined ? null : child.stdin.getWriter();
  await writer?.write(new TextEncoder().encode(options.input));
  const close = () => writer?.close().catch(() => {});
  if (options.closeWhen === undefined) await close();

  const records: Rec[] = [];
  let buffer = "";
  const readStdout = async () => {
    let stdout = "";
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      const text = decoder.decode(chunk, { stream: true });
      stdout += text;
      if (options.closeWhen?.(stdout)) await close();
      if (!options.records) continue;
      buffer += text;
      let lf: number;
      while ((lf = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, lf);
        buffer = buffer.slice(lf + 1);
        const record = JSON.parse(line) as Rec;
        const parsed = SummaryRecordSchema.safeParse(record);
        assert.ok(parsed.success, `Invalid summary record: ${line}`);
        records.push(record);
        options.onRecord?.(record, interrupt, child);
      }
    }
    await close();
    return stdout;
  };
  const [status, stdout, stderr] = await Promise.all([
    child.status,
    readStdout(),
    new Response(child.stderr).text(),
  ]);
  exited = true;
  await onFile;
  clearTimeout(guard);
  if (fresh) await Deno.remove(home!, { recursive: true }).catch(() => {});
  assert.equal(killed, false, `CLI did not exit in time; stderr:\n${stderr}`);
  assert.equal(buffer, "", "stdout ended with a partial line");
  return { code: status.code, records, stdout, stderr };
}

/** Wait until `path` exists (true) or `stop()` holds (false). */
async function whenFileExists(path: string, stop: () => boolean): Promise<boolean> {
  const exists = () => Deno.stat(path).then(() => true, () => false);
  await eventually(async () => stop() || await exists(), Infinity);
  return await exists();
}

/** Records of `type`. */
export function ofType(records: readonly Record<string, unknown>[], type: string): Rec[] {
  return records.filter((r): r is Rec => r.type === type);
}

/** The single record of `type` (an assertion). */
export function one(records: readonly Record<string, unknown>[], type: string): Rec {
  const found = ofType(records, type);
  assert.equal(found.length, 1, `Expected one ${type} record, got ${found.length}`);
  return found[0]!;
}
