/**
 * Host driver: starts the product CLI (`deno run -A cli.ts run --tools DIR
 * --agent "<fake backend>" PROMPT`; `cli.ts` is the lean entry the `start`
 * task runs, `mod.ts` would also load the whole library surface first) with
 * {@link ./fake_backend.ts} as its backend, times spawn → the `host.ready`
 * summary record, drains the host's stdout, waits for exit, and prints one
 * JSON line: the spawn-to-ready time, the host's exit code and the fake
 * backend's stats.
 *
 * The host gets the V8 flags of the repository's `start` task ({@link startTaskV8Flags}), so
 * the memory test measures the heap the product is launched with.
 *
 * Run: `deno run -A bench/harness/host_driver.ts --tools bench/harness/host_tools
 * --tool trivial --calls 2000 --concurrency 4` (`--host-flag=F`, repeatable,
 * adds a `deno run` flag for the host, e.g. `--v8-flags=--trace-gc`; a second
 * `--v8-flags=…` is merged with the `start` task's into one; `--repo DIR` runs another
 * checkout's `cli.ts` with that checkout's `start` task flags, for before/after comparisons;
 * `--otel` runs the host with telemetry on, exporting to a loopback sink).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { epochMs } from "./clock.ts";
import type { FakeBackendStats } from "./fake_backend.ts";
import { LineSplitter } from "./lines.ts";

const REPO = new URL("../../", import.meta.url).pathname;
const FAKE_BACKEND = new URL("./fake_backend.ts", import.meta.url).pathname;
const READY_PREFIX = new TextEncoder().encode('{"type":"host.ready"');
const NEWLINE = new Uint8Array([0x0a]);

/** Options of {@link measureHost}. */
export interface HostRunSpec {
  /** Tool module directory. */
  toolDir: string;
  /** Tool the fake backend calls. */
  tool: string;
  /** Timed calls (0: startup only). */
  calls: number;
  /** Untimed calls first. */
  warmup: number;
  /** Calls in flight at once. */
  concurrency: number;
  /** Sample the host's RSS every this many calls (0: start and end only). */
  rssEvery: number;
  /** Kill the host and fail after this many ms (default 300,000). */
  timeoutMs?: number;
  /**
   * Extra `deno run` flags for the host (investigations), e.g.
   * `--v8-flags=--trace-gc`; none by default, as the `start` task runs it.
   */
  hostFlags?: readonly string[];
  /** Extra `run` options for the CLI, e.g. `--no-kernel-sandbox`; none by default. */
  cliFlags?: readonly string[];
  /**
   * Checkout whose `cli.ts` runs as the host (its working directory too), e.g. an
   * unpacked older commit for before/after runs; default this checkout.
   */
  repo?: string;
  /**
   * Telemetry on: the host runs with `OTEL_DENO=true` and exports (OTLP/HTTP, protobuf) to a sink on
   * loopback that this driver serves and discards, so the host pays for building and exporting
   * every span (docs/telemetry.md). Default off, as the product runs without `OTEL_DENO`.
   */
  otel?: boolean;
}

/** What {@link measureHost} reports. */
export interface HostRunResult {
  /** Spawn → `host.ready` read from the host's stdout, ms. */
  ready_ms: number;
  /** Epoch ms of the host's spawn. */
  spawn_epoch_ms: number;
  /** The host's exit code. */
  exit_code: number;
  /** Summary records the host printed. */
  summary_lines: number;
  /** The fake backend's measurements. */
  backend: FakeBackendStats;
  /** Each tool's enforcement level from `host.ready` (`kernel+deno`, `deno`, `none`). */
  sandbox: Record<string, string>;
}

/**
 * The `--v8-flags=…` arguments of the `start` task in `deno.json` (none when it has none).
 * Throws when `deno.json` has no `start` task, so that the benchmark never silently measures
 * a host launched differently from the product.
 */
export function startTaskV8Flags(denoJson: string): string[] {
  const tasks = (JSON.parse(denoJson) as { tasks?: Record<string, unknown> }).tasks;
  const start = tasks?.start;
  if (typeof start !== "string") throw new Error("deno.json has no `start` task");
  return start.split(/\s+/).filter((arg) => arg.startsWith("--v8-flags="));
}

function startsWith(line: Uint8Array, prefix: Uint8Array): boolean {
  if (line.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (line[i] !== prefix[i]) return false;
  return true;
}

/** Run the host once against the fake backend. Throws when the host fails. */
export async function measureHost(spec: HostRunSpec): Promise<HostRunResult> {
  const statsFile = await Deno.makeTempFile({ prefix: "magi-bench-stats-" });
  const sink = spec.otel === true ? otlpSink() : undefined;
  try {
    const agent = `${Deno.execPath()} run -A ${FAKE_BACKEND}`;
    const repo = spec.repo === undefined ? REPO : spec.repo.replace(/\/*$/, "/");
    // One --v8-flags: the start task's V8 flags, then the ones asked for here.
    const isV8 = (flag: string) => flag.startsWith("--v8-flags=");
    const v8 = [
      ...startTaskV8Flags(await Deno.readTextFile(`${repo}deno.json`)),
      ...(spec.hostFlags ?? []).filter(isV8),
    ].map((flag) => flag.slice("--v8-flags=".length));
    const v8Flags = v8.length === 0 ? [] : [`--v8-flags=${v8.join(",")}`];
    const hostFlags = (spec.hostFlags ?? []).filter((flag) => !isV8(flag));
    const spawnEpoch = epochMs();
    const t0 = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        ...v8Flags,
        ...hostFlags,
        `${repo}cli.ts`,
        "run",
        ...(spec.cliFlags ?? []),
        "--tools",
        spec.toolDir,
        "--agent",
        agent,
        "bench",
      ],
      cwd: repo,
      env: {
        BENCH_STATS_FILE: statsFile,
        BENCH_TOOL: spec.tool,
        BENCH_CALLS: String(spec.calls),
        BENCH_WARMUP: String(spec.warmup),
        BENCH_CONCURRENCY: String(spec.concurrency),
        BENCH_RSS_EVERY: String(spec.rssEvery),
        NO_COLOR: "1",
        ...(sink === undefined ? {} : sink.env),
      },
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        child.kill("SIGKILL");
      } catch {
        // Already exited.
      }
    }, spec.timeoutMs ?? 300_000);
    let readyMs = -1;
    let lines = 0;
    const sandbox: Record<string, string> = {};
    const splitter = new LineSplitter();
    // With other host flags (e.g. --trace-gc, which V8 prints on stdout) non-JSON lines go to
    // stderr.
    const forward = spec.hostFlags !== undefined;
    for await (const chunk of child.stdout) {
      for (const line of splitter.push(chunk)) {
        if (forward && line[0] !== 0x7b) {
          Deno.stderr.writeSync(line);
          Deno.stderr.writeSync(NEWLINE);
          continue;
        }
        lines++;
        if (readyMs < 0 && startsWith(line, READY_PREFIX)) {
          readyMs = performance.now() - t0;
          const ready = JSON.parse(new TextDecoder().decode(line)) as {
            tools: { name: string; sandbox: string }[];
          };
          for (const tool of ready.tools) sandbox[tool.name] = tool.sandbox;
        }
      }
    }
    const status = await child.status;
    clearTimeout(timer);
    if (timedOut) throw new Error(`Host run timed out after ${spec.timeoutMs ?? 300_000} ms`);
    if (status.code !== 0 || readyMs < 0) {
      throw new Error(`Host run failed: exit ${status.code}, ready ${readyMs >= 0}`);
    }
    const backend = JSON.parse(await Deno.readTextFile(statsFile)) as FakeBackendStats;
    return {
      ready_ms: readyMs,
      spawn_epoch_ms: spawnEpoch,
      exit_code: status.code,
      summary_lines: lines,
      backend,
      sandbox,
    };
  } finally {
    await sink?.close();
    await Deno.remove(statsFile).catch(() => {});
  }
}

/** An OTLP/HTTP endpoint on loopback that reads and discards every export. */
function otlpSink(): { env: Record<string, string>; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    await req.arrayBuffer();
    return Response.json({});
  });
  return {
    env: {
      OTEL_DENO: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${server.addr.port}`,
      // Deno's default protocol (http/protobuf), as a user's collector gets it.
      OTEL_SERVICE_NAME: "magi-tools-bench",
      // The host's own spans and metrics only: console output is not what is measured.
      OTEL_DENO_CONSOLE: "ignore",
    },
    close: () => server.shutdown(),
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      tools: { type: "string", default: new URL("./host_tools", import.meta.url).pathname },
      tool: { type: "string", default: "trivial" },
      calls: { type: "string", default: "0" },
      warmup: { type: "string", default: "0" },
      concurrency: { type: "string", default: "1" },
      "rss-every": { type: "string", default: "0" },
      "host-flag": { type: "string", multiple: true },
      "cli-flag": { type: "string", multiple: true },
      repo: { type: "string" },
      otel: { type: "boolean", default: false },
    },
  });
  const result = await measureHost({
    toolDir: values.tools,
    tool: values.tool,
    calls: Number(values.calls),
    warmup: Number(values.warmup),
    concurrency: Number(values.concurrency),
    rssEvery: Number(values["rss-every"]),
    ...(values["host-flag"] === undefined ? {} : { hostFlags: values["host-flag"] }),
    ...(values["cli-flag"] === undefined ? {} : { cliFlags: values["cli-flag"] }),
    ...(values.repo === undefined ? {} : { repo: values.repo }),
    otel: values.otel,
  });
  console.log(JSON.stringify(result));
}
