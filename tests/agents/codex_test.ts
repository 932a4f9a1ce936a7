/**
 * Codex (`@openai/codex`, pinned in dev/agents/package.json) with `magi-tools mcp` as its MCP
 * servers and a mock OpenAI Responses API as its model (`codex exec`, non-interactive).
 */

import { AGENTS, availability } from "./_install.ts";
import { runAgent } from "./_run.ts";
import { commonChecks, report } from "./_checks.ts";
import { Scenario, type ServerEntry } from "./_scenario.ts";
import { agentTest } from "./_test.ts";

const AGENT = AGENTS.codex;

/**
 * What Codex 0.171.0 tries to reach on its own at every `exec` start, with the update check,
 * analytics, feedback and OpenTelemetry off: GitHub (its plugin marketplace) and chatgpt.com
 * (account and app discovery). The proxy refuses them, the run goes on; none carries a tool
 * call or result. Anything else is a failure.
 */
const CODEX_OWN_TRAFFIC = [
  /^CONNECT github\.com:443$/,
  /^CONNECT api\.github\.com:443$/,
  /^CONNECT chatgpt\.com:443$/,
];

/** A TOML basic string (JSON's escapes are TOML's for these values). */
function str(value: string): string {
  return JSON.stringify(value);
}

function serverToml(
  name: string,
  entry: ServerEntry,
  options: { approve?: boolean; toolTimeoutSec?: number } = {},
): string {
  return [
    `[mcp_servers.${name}]`,
    `command = ${str(entry.command)}`,
    `args = [${entry.args.map(str).join(", ")}]`,
    `env = { ${Object.entries(entry.env).map(([k, v]) => `${k} = ${str(v)}`).join(", ")} }`,
    "startup_timeout_sec = 60",
    // Codex 0.171.0 gives a server that is not `required` one second to start before the first
    // turn, then leaves its tools out of that turn: a cold magi-tools start (Deno compiling after
    // an update) takes longer. `required` makes the turn wait (up to startup_timeout_sec).
    "required = true",
    `tool_timeout_sec = ${options.toolTimeoutSec ?? 60}`,
    // Codex's own MCP approval prompt (an elicitation to the user) would cancel every call in
    // `exec`: "approve" leaves the decision to the server's policy, which is what is tested.
    ...(options.approve ? [`default_tools_approval_mode = "approve"`] : []),
    "",
  ].join("\n");
}

function config(scenario: Scenario): string {
  return [
    `model = "mock-model"`,
    `model_provider = "mock"`,
    `approval_policy = "never"`,
    `sandbox_mode = "read-only"`,
    `check_for_update_on_startup = false`,
    "",
    "[model_providers.mock]",
    `name = "mock"`,
    `base_url = ${str(`${scenario.mock.url}/v1`)}`,
    `env_key = "MOCK_API_KEY"`,
    `wire_api = "responses"`,
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[feedback]",
    "enabled = false",
    "",
    "[otel]",
    `exporter = "none"`,
    "",
    serverToml("magi", scenario.servers.magi, { approve: true }),
    serverToml("magiallow", scenario.servers.magiallow, { approve: true }),
    serverToml("magicancel", scenario.servers.magicancel, { approve: true, toolTimeoutSec: 5 }),
    serverToml("probe", scenario.servers.probe),
  ].join("\n");
}

await agentTest(AGENT, availability(AGENT), async (t, path) => {
  const scenario = await Scenario.start("responses");
  try {
    const codexHome = `${scenario.home}/.codex`;
    await Deno.mkdir(codexHome, { recursive: true });
    await Deno.writeTextFile(`${codexHome}/config.toml`, config(scenario));
    const run = await runAgent({
      command: path,
      args: [
        "exec",
        "--skip-git-repo-check",
        "--json",
        "-C",
        scenario.work,
        "Use the magi tools.",
      ],
      cwd: scenario.work,
      env: scenario.agentEnv({
        CODEX_HOME: codexHome,
        MOCK_API_KEY: "mock-key",
      }),
      timeoutMs: 120_000,
    });
    report("codex", run, scenario);
    console.error(
      `codex initialize (probe): ${JSON.stringify(await scenario.clientInit())}`,
    );
    await commonChecks(t, run, scenario, {
      allowedOutbound: CODEX_OWN_TRAFFIC,
      ask: "declined through elicitation",
    });
  } finally {
    await scenario.close();
  }
});
