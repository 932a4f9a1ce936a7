/**
 * The machine and versions a benchmark run was taken on.
 *
 * @module
 */

/** Machine and toolchain facts for the report header. */
export interface MachineInfo {
  /** `nproc`: CPUs available to this process. */
  nproc: number;
  /** `model name` from `/proc/cpuinfo`. */
  cpuModel: string;
  /** `MemTotal` from `/proc/meminfo`, MiB. */
  memoryMib: number;
  /** `deno --version` first line. */
  deno: string;
  /** `node --version`, or `not installed`. */
  node: string;
  /** Resolved `@modelcontextprotocol/sdk` version of the Deno column. */
  mcpSdk: string;
  /**
   * The Node.js column's installed `@modelcontextprotocol/sdk` version (set by
   * `bench/main.ts` once `bench/node/` is installed; absent in older saved runs).
   */
  mcpSdkNode?: string;
  /** Load averages from `/proc/loadavg` (1, 5, 15 minutes). */
  loadavg: [number, number, number];
  /** ISO date and time. */
  date: string;
}

/** `model name` of the first CPU in a `/proc/cpuinfo` text, or `unknown`. */
export function cpuModelOf(cpuinfo: string): string {
  return /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? "unknown";
}

/** `MemTotal` of a `/proc/meminfo` text in MiB, or 0. */
export function memTotalMibOf(meminfo: string): number {
  const kb = /^MemTotal:\s+(\d+) kB$/m.exec(meminfo)?.[1];
  return kb === undefined ? 0 : Math.round(Number(kb) / 1024);
}

/** The three load averages of a `/proc/loadavg` text. */
export function loadavgOf(text: string): [number, number, number] {
  const [a = "0", b = "0", c = "0"] = text.trim().split(/\s+/);
  return [Number(a), Number(b), Number(c)];
}

async function output(command: string, args: string[]): Promise<string | null> {
  try {
    const result = await new Deno.Command(command, { args, stdout: "piped", stderr: "null" })
      .output();
    return result.success ? new TextDecoder().decode(result.stdout).trim() : null;
  } catch {
    return null;
  }
}

/** The resolved SDK version from `deno info --json` of the MCP driver. */
async function mcpSdkVersion(): Promise<string> {
  const driver = new URL("./harness/mcp_client.ts", import.meta.url).pathname;
  const config = new URL("../dev/deno.json", import.meta.url).pathname;
  const json = await output(Deno.execPath(), ["info", "--json", "--config", config, driver]);
  if (json === null) return "unknown";
  const packages = (JSON.parse(json) as { npmPackages?: Record<string, unknown> }).npmPackages;
  for (const key of Object.keys(packages ?? {})) {
    const match = /^@modelcontextprotocol\/sdk@([^_]+)/.exec(key);
    if (match !== null) return match[1]!;
  }
  return "unknown";
}

/** Read the current load averages. */
export function readLoadavg(): [number, number, number] {
  return loadavgOf(Deno.readTextFileSync("/proc/loadavg"));
}

/** Collect the machine facts. */
export async function machineInfo(): Promise<MachineInfo> {
  return {
    nproc: Number(await output("nproc", [])) || navigator.hardwareConcurrency,
    cpuModel: cpuModelOf(await Deno.readTextFile("/proc/cpuinfo")),
    memoryMib: memTotalMibOf(await Deno.readTextFile("/proc/meminfo")),
    deno: (await output(Deno.execPath(), ["--version"]))?.split("\n")[0] ?? Deno.version.deno,
    node: (await output("node", ["--version"])) ?? "not installed",
    mcpSdk: await mcpSdkVersion(),
    loadavg: readLoadavg(),
    date: new Date().toISOString(),
  };
}
