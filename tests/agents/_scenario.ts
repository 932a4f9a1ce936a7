/**
 * The one scenario every agent runs: `magi-tools mcp` as three stdio servers (`magi`: the
 * fixture tools with the default approval policy, ask; `magiallow`: one write tool with
 * `--approve allow`; `magicancel`: a tool that outlasts the agent's own tool timeout) plus a
 * probe server that records the client's `initialize` and is slow to start; a scripted mock
 * model that makes the agent call the tools in turn ({@link STEPS}). The checks on what reached
 * the model are in `_checks.ts`.
 *
 * @module
 */

import { MockModel, type Step } from "./_mock.ts";
import type { ApiShape } from "./_shapes.ts";
import { ROOT } from "./_install.ts";

/** Fixture tool directories. */
const TOOLS = `${ROOT}tests/agents/fixtures/tools`;
const ALLOW_TOOLS = `${ROOT}tests/agents/fixtures/allow_tools`;
const CANCEL_TOOLS = `${ROOT}tests/agents/fixtures/cancel_tools`;
const PROBE = `${ROOT}tests/agents/fixtures/probe_server.ts`;
/** How long the probe server takes to answer `initialize` (a cold magi-tools start). */
export const PROBE_START_MS = 2_000;

/** The fixture tools the scenario expects the agent to list. */
export const FIXTURE_TOOLS = [
  "lookup_color",
  "fail_always",
  "wait_slow",
  "save_note",
  "keep_note",
  "wait_long",
  "probe_ready",
] as const;

/** The final answer of the mock model; the agent prints it. */
export const FINAL_TEXT = "All magi checks are done (final-answer-5b1e).";

/** A stdio MCP server entry, as every agent's config names one. */
export interface ServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * The environment every server gets from the agent's config. `DENO_DIR` is the test runner's
 * (already holding the locked packages): with the agent's fresh HOME, Deno would otherwise fetch
 * them again, and the agent's proxy refuses that.
 */
const SERVER_ENV = {
  DENO_NO_UPDATE_CHECK: "1",
  NO_COLOR: "1",
  DENO_DIR: denoDir(),
};

function denoDir(): string {
  const info = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  return (JSON.parse(new TextDecoder().decode(info.stdout)) as {
    denoDir: string;
  }).denoDir;
}

/**
 * `deno run … cli.ts mcp --tools DIR [--approve allow]`, with the documented least-privilege
 * flags (docs/mcp.md) and `DENO_NO_UPDATE_CHECK=1`.
 */
export function magiServer(tools: string, extra: string[] = []): ServerEntry {
  return {
    command: Deno.execPath(),
    args: [
      "run",
      `--lock=${ROOT}deno.full.lock`,
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-env=MAGI_CODE_AGENT,PATH",
      "--allow-run",
      `${ROOT}cli.ts`,
      "mcp",
      "--tools",
      tools,
      ...extra,
    ],
    env: SERVER_ENV,
  };
}

/** One agent's scenario: its temp dirs, servers and mock. */
export class Scenario {
  readonly root: string;
  /** The agent's HOME (fresh per run). */
  readonly home: string;
  /** The agent's working directory (a user's project), where the servers run. */
  readonly work: string;
  readonly probeLog: string;
  readonly mock: MockModel;
  readonly steps: Step[];
  /**
   * `magi`: the fixture tools, default policy; `magiallow`: a write tool, `--approve allow`;
   * `magicancel`: a tool that outlasts the agent's own tool timeout (set short for this server,
   * or for all where the agent has one setting); `probe`: records the client's `initialize`.
   */
  readonly servers: Record<"magi" | "magiallow" | "magicancel" | "probe", ServerEntry>;

  private constructor(root: string, shape: ApiShape, steps: Step[]) {
    this.root = root;
    this.home = `${root}/home`;
    this.work = `${root}/project`;
    this.probeLog = `${root}/probe.jsonl`;
    this.steps = steps;
    this.mock = new MockModel({
      shape,
      steps: this.steps,
      finalText: FINAL_TEXT,
      fixtureTools: FIXTURE_TOOLS,
    });
    this.servers = {
      magi: magiServer(TOOLS),
      magiallow: magiServer(ALLOW_TOOLS, ["--approve", "allow"]),
      magicancel: magiServer(CANCEL_TOOLS),
      probe: {
        command: Deno.execPath(),
        args: [
          "run",
          "--no-prompt",
          `--allow-write=${this.probeLog}`,
          PROBE,
          this.probeLog,
          String(PROBE_START_MS),
        ],
        env: SERVER_ENV,
      },
    };
  }

  /** Temp dirs and the mock, started; `steps` replaces the scripted calls ({@link STEPS}). */
  static async start(
    shape: ApiShape,
    options: { extraSteps?: Step[]; steps?: Step[] } = {},
  ): Promise<Scenario> {
    const root = await Deno.makeTempDir({ prefix: "magi-agents-" });
    const steps = [...(options.steps ?? STEPS), ...(options.extraSteps ?? [])];
    const scenario = new Scenario(root, shape, steps);
    await Deno.mkdir(scenario.home, { recursive: true });
    // The write tools' scope (out/, inside the project).
    await Deno.mkdir(`${scenario.work}/out`, { recursive: true });
    return scenario;
  }

  /**
   * The environment of the agent: a fresh HOME, PATH with node and deno, and every proxy
   * variable pointing at the refusing proxy (loopback excepted, where the mock model is).
   */
  agentEnv(extra: Record<string, string>): Record<string, string> {
    const proxy = this.mock.proxyUrl;
    const denoDir = Deno.execPath().replace(/\/[^/]+$/, "");
    return {
      HOME: this.home,
      PATH: `${denoDir}:/usr/local/bin:/usr/bin:/bin`,
      TMPDIR: this.root,
      LANG: "C.UTF-8",
      NO_COLOR: "1",
      TERM: "dumb",
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      ALL_PROXY: proxy,
      http_proxy: proxy,
      https_proxy: proxy,
      all_proxy: proxy,
      NO_PROXY: "127.0.0.1,localhost",
      no_proxy: "127.0.0.1,localhost",
      DENO_NO_UPDATE_CHECK: "1",
      ...extra,
    };
  }

  /** The client's `initialize` params as the probe server recorded them (first one). */
  async clientInit(): Promise<Record<string, unknown> | null> {
    try {
      const line = (await Deno.readTextFile(this.probeLog)).split("\n")[0] ??
        "";
      return line === "" ? null : JSON.parse(line);
    } catch {
      return null;
    }
  }

  /** Whether the client declared the MCP elicitation capability in its `initialize`. */
  async declaresElicitation(): Promise<boolean | null> {
    const init = await this.clientInit();
    if (init === null) return null;
    const capabilities = init.capabilities as Record<string, unknown> | undefined;
    return capabilities?.elicitation !== undefined;
  }

  async close(): Promise<void> {
    await this.mock.close();
    // MAGI_TOOLS_AGENT_DUMP keeps the temp dirs (the agent's HOME with its logs) for a look.
    if (Deno.env.get("MAGI_TOOLS_AGENT_DUMP") !== undefined) {
      console.error(`kept ${this.root}`);
      return;
    }
    await Deno.remove(this.root, { recursive: true }).catch(() => {});
  }
}

/** What step 4 asks `save_note` (a write tool under the default policy, ask) to write. */
export const SAVE_NOTE_TEXT = "written only when approved";

/** The scripted calls, in order (indices are the `step` numbers the checks use). */
export const STEPS: Step[] = [
  /* 0 */ { tool: "lookup_color", args: { name: "teal" } },
  /* 1 */ { tool: "lookup_color", args: { name: "purple" } },
  /* 2 */ { tool: "fail_always", args: { id: "r-17" } },
  /* 3 */ { tool: "wait_slow", args: { seconds: 30 } },
  /* 4 */ { tool: "save_note", args: { text: SAVE_NOTE_TEXT } },
  /* 5 */ { tool: "keep_note", args: { text: "kept with --approve allow" } },
  /* 6 */ { tool: "wait_long", args: { seconds: 60 } },
];
