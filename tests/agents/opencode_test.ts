/**
 * opencode (`opencode-ai`, pinned in dev/agents/package.json) with `magi-tools mcp` as its
 * MCP servers (`opencode.json` `mcp`, type `local`) and a mock Chat Completions API as its
 * model (a custom `@ai-sdk/openai-compatible` provider; `opencode run`, non-interactive).
 */

import { AGENTS, availability } from "./_install.ts";
import { runAgent } from "./_run.ts";
import { commonChecks, report } from "./_checks.ts";
import { Scenario } from "./_scenario.ts";
import { agentTest } from "./_test.ts";

const AGENT = AGENTS.opencode;

/**
 * What opencode 1.18.33 tries to reach on its own: the npm registry, for a background install of
 * `@opencode-ai/plugin` into its config directory (its log: "background dependency install
 * failed ... 403"). The proxy refuses it, the run goes on. Anything else is a failure.
 */
const OPENCODE_OWN_TRAFFIC = [/^CONNECT registry\.npmjs\.org:443$/];

await agentTest(AGENT, availability(AGENT), async (t, path) => {
  const scenario = await Scenario.start("chat");
  try {
    const mcp = Object.fromEntries(
      Object.entries(scenario.servers).map(([name, entry]) => [
        name,
        {
          type: "local",
          command: [entry.command, ...entry.args],
          environment: entry.env,
          enabled: true,
          timeout: name === "magicancel" ? 5_000 : 60_000,
        },
      ]),
    );
    const config = {
      $schema: "https://opencode.ai/config.json",
      autoupdate: false,
      share: "disabled",
      model: "mock/mock-model",
      small_model: "mock/mock-model",
      provider: {
        mock: {
          npm: "@ai-sdk/openai-compatible",
          name: "Mock",
          options: { baseURL: `${scenario.mock.url}/v1`, apiKey: "mock-key" },
          models: { "mock-model": { name: "Mock model", tool_call: true } },
        },
      },
      // opencode's own permission for these servers' tools, so that what is tested is the
      // server's policy (its --approve) for the write tools.
      permission: {
        "magi_*": "allow",
        "magiallow_*": "allow",
        "magicancel_*": "allow",
        "probe_*": "allow",
      },
      mcp,
    };
    const configFile = `${scenario.root}/opencode.json`;
    await Deno.writeTextFile(configFile, JSON.stringify(config, null, 2));
    const run = await runAgent({
      command: path,
      args: ["run", "Use the magi tools."],
      cwd: scenario.work,
      env: scenario.agentEnv({
        OPENCODE_CONFIG: configFile,
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_SHARE: "1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
        OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        OPENCODE_DISABLE_CLAUDE_CODE: "1",
        OPENCODE_DISABLE_PROJECT_CONFIG: "1",
      }),
      timeoutMs: 120_000,
    });
    report("opencode", run, scenario);
    console.error(`opencode initialize (probe): ${JSON.stringify(await scenario.clientInit())}`);
    await commonChecks(t, run, scenario, {
      allowedOutbound: OPENCODE_OWN_TRAFFIC,
      ask: "refused: the client has no elicitation",
    });
  } finally {
    await scenario.close();
  }
});
