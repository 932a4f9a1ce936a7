/**
 * The host's side of the kernel layer (Deno only): probing whether Landlock
 * is usable, finding the module files a tool process loads, and the command
 * line that starts a tool's `deno run` through the launcher.
 *
 * @module
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { osName, runtimeExecutable, spawnChild } from "../runtime/mod.ts";
import {
  CERTIFICATE_VARIABLES,
  configCandidates,
  kernelPolicy,
  type KernelSupport,
  kernelSupportFromAbi,
  kernelUnavailable,
} from "./kernel_policy.ts";
import type { ToolPermissions } from "../tool/define.ts";
import { NO_INHERIT_FLAG } from "./permissions.ts";
import { runnerConfig, toolModuleConfig } from "./module_config.ts";

const LAUNCHER_URL = new URL("./launcher.ts", import.meta.url);
const RUNNER_URL = new URL("./runner.ts", import.meta.url);
const PROBE_TIMEOUT_MS = 15_000;
const GRAPH_TIMEOUT_MS = 30_000;

/** Flags of the launcher's own `deno run` (it loads libc and reads where Deno's caches are). */
const LAUNCHER_FLAGS = [
  "--no-prompt",
  NO_INHERIT_FLAG,
  "--allow-ffi",
  `--allow-env=${["DENO_DIR", "XDG_CACHE_HOME", "HOME", "PATH", ...CERTIFICATE_VARIABLES]}`,
];

/** Run `command`; its stdout as text, or null when it failed or timed out. */
async function outputOf(
  command: string,
  args: readonly string[],
  options: { cwd?: string; timeoutMs: number },
): Promise<string | null> {
  let child;
  try {
    child = spawnChild(command, args, {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      stderr: "null",
      env: { NO_COLOR: "1" },
    });
  } catch {
    return null;
  }
  await child.stdin.close().catch(() => {});
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
  try {
    const [text, status] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    return status.code === 0 ? text : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the kernel layer can be used: on Linux, asks the kernel for its
 * Landlock ABI version in a short-lived launcher process (the host itself
 * has no FFI permission). Never rejects.
 */
export async function probeKernelSandbox(denoPath?: string): Promise<KernelSupport> {
  if (osName() !== "linux") {
    return kernelUnavailable(`Landlock is Linux only (this is ${osName()})`);
  }
  const text = await outputOf(
    denoPath ?? runtimeExecutable(),
    ["run", ...LAUNCHER_FLAGS, LAUNCHER_URL.href, "probe"],
    { timeoutMs: PROBE_TIMEOUT_MS },
  );
  if (text === null) return kernelUnavailable("the Landlock probe failed to run");
  try {
    const { abi } = JSON.parse(text) as { abi: number | null };
    return kernelSupportFromAbi(typeof abi === "number" ? abi : null);
  } catch {
    return kernelUnavailable("the Landlock probe answered something else");
  }
}

const graphs = new Map<string, Promise<string[]>>();

/**
 * The local module files of `file`'s module graph (`deno info --json`), so
 * the restricted process can load them; `[file]` when that fails (the tool
 * process then reports which import it could not read). Computed once per
 * file, Deno executable and working directory in this process; call it
 * early (the host does, while the backend initializes) so the first tool
 * process does not wait for it.
 */
export function moduleFilesOf(
  file: string,
  options: { cwd: string; denoPath: string },
): Promise<string[]> {
  const key = JSON.stringify([file, options.cwd, options.denoPath]);
  let graph = graphs.get(key);
  if (graph === undefined) {
    graph = computeModuleFiles(file, options);
    graphs.set(key, graph);
  }
  return graph;
}

async function computeModuleFiles(
  file: string,
  options: { cwd: string; denoPath: string },
): Promise<string[]> {
  // The tool process resolves bare specifiers (`@magi/tools`, `zod`) through the config of its
  // entry module, the runner's: `deno info` must use the same one, or an import-map target such
  // as this package's `mod.ts` is missing from the graph and the ruleset.
  const config = runnerConfig() ?? toolModuleConfig();
  const args = config === null
    ? ["info", "--json", file]
    : ["info", "--json", "--config", config, file];
  const text = await outputOf(options.denoPath, args, {
    cwd: options.cwd,
    timeoutMs: GRAPH_TIMEOUT_MS,
  });
  if (text === null) return [file];
  try {
    const info = JSON.parse(text) as {
      modules?: { local?: unknown }[];
      npmPackages?: Record<string, { localPath?: unknown }>;
    };
    const files = (info.modules ?? []).map((m) => m.local)
      .filter((local): local is string => typeof local === "string");
    // Each npm package of the graph as its own directory (`<DENO_DIR>/npm/<registry>/<name>/
    // <version>`): the npm cache is not readable as a whole.
    const packages = Object.values(info.npmPackages ?? {}).map((p) => p.localPath)
      .filter((local): local is string => typeof local === "string");
    files.push(...packages);
    return files.includes(file) ? files : [file, ...files];
  } catch {
    return [file];
  }
}

/**
 * Directories of magi-tools' own modules when they are local files; from JSR
 * they are in `<DENO_DIR>/remote`, granted whole in that case only (the
 * runner's remote graph is not computed: a known gap, see docs/tools.md).
 */
function packageDirs(): string[] {
  return RUNNER_URL.protocol === "file:" ? [fileURLToPath(new URL("../", RUNNER_URL))] : [];
}

/**
 * The runner's own module graph (its npm packages: the tool module's graph may not import
 * them), computed once; empty when the runner is not a local file.
 */
export function runnerFilesOf(options: { cwd: string; denoPath: string }): Promise<string[]> {
  if (RUNNER_URL.protocol !== "file:") return Promise.resolve([]);
  return moduleFilesOf(fileURLToPath(RUNNER_URL), options);
}

/** What {@link launchArgs} needs. */
export interface LaunchSpec {
  /** The tool's declared permissions. */
  readonly permissions: ToolPermissions | undefined;
  /** Working directory (relative permission entries resolve against it). */
  readonly cwd: string;
  /** The Deno executable. */
  readonly denoPath: string;
  /** The tool module's local files ({@link moduleFilesOf}), the runner's included. */
  readonly moduleFiles: readonly string[];
  /** The tool's `memoryMb`. */
  readonly memoryMb?: number;
  /** The tool process's `deno` arguments (`run`, flags, runner). */
  readonly args: readonly string[];
}

/**
 * Arguments for `denoPath` that start the launcher, which restricts itself
 * to the tool's policy and then executes `denoPath` with `spec.args`.
 */
export function launchArgs(spec: LaunchSpec): string[] {
  const runnerDir = RUNNER_URL.protocol === "file:" ? dirname(fileURLToPath(RUNNER_URL)) : null;
  const projectConfig = toolModuleConfig();
  const projectConfigDir = projectConfig === null ? null : dirname(projectConfig);
  const policy = kernelPolicy(spec.permissions, {
    cwd: spec.cwd,
    denoPath: spec.denoPath,
    moduleFiles: spec.moduleFiles,
    packageDirs: packageDirs(),
    configFiles: [
      ...(runnerDir === null ? [] : configCandidates(runnerDir)),
      ...(projectConfigDir === null ? [] : configCandidates(projectConfigDir)),
    ],
    denoCache: runnerDir === null ? ["remote"] : [],
    ...(spec.memoryMb === undefined ? {} : { memoryMb: spec.memoryMb }),
  });
  return [
    "run",
    ...LAUNCHER_FLAGS,
    LAUNCHER_URL.href,
    "exec",
    JSON.stringify(policy),
    spec.denoPath,
    ...spec.args,
  ];
}

/**
 * Arguments for `denoPath` that start the launcher in its `limit` mode: it caps its data
 * size (`memoryMb` beyond Deno's own reservation) and executes `denoPath` with `args`. For
 * a tool with `memoryMb` where the kernel layer is not used (Linux only).
 */
export function limitArgs(memoryMb: number, denoPath: string, args: readonly string[]): string[] {
  return [
    "run",
    ...LAUNCHER_FLAGS,
    LAUNCHER_URL.href,
    "limit",
    String(memoryMb),
    denoPath,
    ...args,
  ];
}
