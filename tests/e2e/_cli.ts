/** Run the CLI as a child process and collect its NDJSON records (e2e test helper). */

import assert from "node:assert/strict";
import { SummaryRecordSchema } from "../../src/summary/records.ts";

/** Repository root (with a trailing slash). */
export const ROOT = new URL("../../", import.meta.url).pathname;
/** Fixture tool directory. */
export const FIXTURE_TOOLS = `${ROOT}tests/e2e/fixtures/tools`;
/** Scenario file of the e2e tests. */
export const SCENARIO = `${ROOT}tests/e2e/fixtures/scenarios/results.jsonc`;
/** The fake backend fixture. */
export const FAKE_BACKEND = `${ROOT}tests/client/fixtures/fake_backend.ts`;
/** The reference backend as an `--agent` command line. */
export const REFERENCE_AGENT =
  `${Deno.execPath()} run -A ${ROOT}src/reference_backend/main.ts serve --stdio`;

/**
 * `deno run` flags of the full CLI run from this checkout: the root config with `deno.full.lock`,
 * which holds the MCP SDK and the OpenAPI packages besides the core's (docs/packages.md).
 */
export const FULL_CLI: readonly string[] = [`--lock=${ROOT}deno.full.lock`];
/**
 * `deno run` flags of a test program that imports dev-only packages (the MCP SDK by its bare
 * name, the pinned MCP servers): `dev/deno.json` and its lockfile.
 */
export const DEV_CONFIG: readonly string[] = ["--config", `${ROOT}dev/deno.json`];

/** A summary record as parsed JSON. */
export type Rec = Record<string, unknown> & { type: string };

/** What one CLI run produced. */
export interface CliResult {
  code: number;
  records: Rec[];
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}. */
export interface CliOptions {
  env?: Record<string, string>;
  /** Called for each record as it arrives, with a function sending SIGINT to the CLI. */
  onRecord?: (record: Rec, interrupt: () => void) => void;
  /** Send SIGINT once this file exists (checked every 25 ms until the CLI exits). */
  interruptOnFile?: string;
  /** Use this `MC_HOME` (kept) instead of a fresh temporary one. */
  home?: string;
  /** stdout is not NDJSON summaries (help, tools): do not parse it. */
  raw?: boolean;
  /** Kill the CLI after this long (a test failure, never a hang); default 60 s. */
  killAfterMs?: number;
  /** Working directory of the CLI; default the repository root ({@link ROOT}). */
  cwd?: string;
}

/** The fake backend in `mode` as an `--agent` command line. */
export function fakeAgent(mode: string): string {
  return `${Deno.execPath()} run -A ${FAKE_BACKEND} ${mode}`;
}

/**
 * Run `deno run -A mod.ts ...args` (the full CLI, {@link FULL_CLI}) from the repository root
 * (or `options.cwd`).
 */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const home = options.home ?? await Deno.makeTempDir({ prefix: "magi-tools-e2e-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...FULL_CLI, "-A", `${ROOT}mod.ts`, ...args],
    cwd: options.cwd ?? ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: {
      NO_COLOR: "1",
      MC_HOME: home,
      MAGI_CODE_AGENT: REFERENCE_AGENT,
      MAGI_BACKEND_SELF_CHECK: "1",
      MAGI_TOOLS_SELF_CHECK: "1",
      ...options.env,
    },
  }).spawn();
  let killed = false;
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
  let exited = false;
  const onFile = options.interruptOnFile === undefined
    ? Promise.resolve()
    : whenFileExists(options.interruptOnFile, () => exited).then((found) => {
      if (found) interrupt();
    });
  const stderrText = new Response(child.stderr).text();
  const records: Rec[] = [];
  let stdout = "";
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    const text = decoder.decode(chunk, { stream: true });
    stdout += text;
    if (options.raw) continue;
    buffer += text;
    let lf: number;
    while ((lf = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, lf);
      buffer = buffer.slice(lf + 1);
      const record = JSON.parse(line) as Rec;
      const parsed = SummaryRecordSchema.safeParse(record);
      assert.ok(parsed.success, `Invalid summary record: ${line}`);
      records.push(record);
      options.onRecord?.(record, interrupt);
    }
  }
  const status = await child.status;
  exited = true;
  await onFile;
  clearTimeout(guard);
  const stderr = await stderrText;
  if (options.home === undefined) await Deno.remove(home, { recursive: true }).catch(() => {});
  assert.equal(killed, false, `CLI did not exit in time; stderr:\n${stderr}`);
  assert.equal(buffer, "", "stdout ended with a partial line");
  return { code: status.code, records, stdout, stderr };
}

/** Wait until `path` exists (true) or `stop()` holds (false), looking every 25 ms. */
async function whenFileExists(path: string, stop: () => boolean): Promise<boolean> {
  while (!stop()) {
    try {
      await Deno.stat(path);
      return true;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return false;
}

/** Records of `type`. */
export function ofType(records: Rec[], type: string): Rec[] {
  return records.filter((r) => r.type === type);
}

/** The single record of `type`. */
export function one(records: Rec[], type: string): Rec {
  const found = ofType(records, type);
  assert.equal(found.length, 1, `Expected one ${type} record, got ${found.length}`);
  return found[0]!;
}
