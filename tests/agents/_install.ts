/**
 * The pinned agents of dev/agents/package.json, installed on first use into `.tools/agents/`
 * (git-ignored) from the committed dev/agents/package-lock.json, and found there. Each agent is either
 * available (its executable and version) or skipped with a reason that the test names.
 *
 * `MAGI_TOOLS_AGENT_TESTS=0` skips them all (loudly, like any other skip).
 *
 * @module
 */

import { withInstallLock } from "../_kit/install_lock.ts";
import { root as ROOT } from "../_kit/root.ts";

export { ROOT };
const SOURCE = `${ROOT}dev/agents/`;
/** Where the agents are installed (git-ignored, excluded from fmt/lint/test). */
export const INSTALL_DIR = `${ROOT}.tools/agents/`;
const STAMP = `${INSTALL_DIR}installed-lock.json`;
/** Node version the pinned agents need (Gemini CLI: >=20). */
const MIN_NODE_MAJOR = 20;

/** An agent of the pinned set. */
export interface AgentBin {
  /** npm package. */
  pkg: string;
  /** Pinned version (package.json). */
  version: string;
  /** Executable under node_modules/.bin. */
  bin: string;
}

/** The pinned agents, as dev/agents/package.json has them. */
export const AGENTS = {
  codex: { pkg: "@openai/codex", version: "0.171.0", bin: "codex" },
  claude: {
    pkg: "@anthropic-ai/claude-code",
    version: "2.1.332",
    bin: "claude",
  },
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
  opencode: { pkg: "opencode-ai", version: "1.18.33", bin: "opencode" },
} as const satisfies Record<string, AgentBin>;

/** An agent ready to run, or why not. */
export type Availability = { ok: true; path: string } | {
  ok: false;
  reason: string;
};

let installed: Promise<string | null> | undefined;

/** Install the pinned set once per process; null when it is there, else why it is not. */
function installOnce(): Promise<string | null> {
  installed ??= withInstallLock(INSTALL_DIR, install);
  return installed;
}

async function install(): Promise<string | null> {
  if (Deno.env.get("MAGI_TOOLS_AGENT_TESTS") === "0") {
    return "MAGI_TOOLS_AGENT_TESTS=0";
  }
  const node = await output("node", ["--version"]);
  if (node === null) return "node is not on PATH";
  const major = Number(/^v(\d+)/.exec(node)?.[1] ?? "0");
  if (major < MIN_NODE_MAJOR) {
    return `node ${node} is older than ${MIN_NODE_MAJOR}`;
  }
  const lock = await Deno.readTextFile(`${SOURCE}package-lock.json`);
  if (await readOrNull(STAMP) === lock) return null;
  await Deno.mkdir(INSTALL_DIR, { recursive: true });
  await Deno.copyFile(`${SOURCE}package.json`, `${INSTALL_DIR}package.json`);
  await Deno.writeTextFile(`${INSTALL_DIR}package-lock.json`, lock);
  console.error(
    `tests/agents: installing the pinned agents into ${INSTALL_DIR} (npm install)`,
  );
  // `npm ci` would refuse this lock: the registry reachable here lacks some of opencode's
  // platform packages for other systems, so the lock has no entry for them. `npm install` with
  // the lock in place installs exactly its versions and leaves the missing optional ones out.
  const npm = new Deno.Command("npm", {
    args: [
      "install",
      "--no-audit",
      "--no-fund",
      "--no-save",
      "--loglevel=error",
    ],
    cwd: INSTALL_DIR,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  });
  let code: number;
  try {
    code = (await npm.output()).code;
  } catch (error) {
    return `npm could not run: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (code !== 0) {
    return `npm install in ${INSTALL_DIR} exited with code ${code}`;
  }
  await Deno.writeTextFile(STAMP, lock);
  return null;
}

/** The agent's executable after the install, checked by its `--version`. */
export async function availability(agent: AgentBin): Promise<Availability> {
  const failed = await installOnce();
  if (failed !== null) return { ok: false, reason: failed };
  const path = `${INSTALL_DIR}node_modules/.bin/${agent.bin}`;
  const home = await Deno.makeTempDir({ prefix: "magi-agents-version-" });
  const version = await output(path, ["--version"], {
    HOME: home,
    PATH: Deno.env.get("PATH") ?? "",
  })
    .finally(() => Deno.remove(home, { recursive: true }).catch(() => {}));
  if (version === null) {
    return { ok: false, reason: `${path} --version failed` };
  }
  if (!version.includes(agent.version)) {
    return {
      ok: false,
      reason: `${path} --version says ${version}, not ${agent.version}`,
    };
  }
  return { ok: true, path };
}

async function output(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<string | null> {
  try {
    const result = await new Deno.Command(command, {
      args,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(60_000),
    }).output();
    return result.success ? new TextDecoder().decode(result.stdout).trim() : null;
  } catch {
    return null;
  }
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}
