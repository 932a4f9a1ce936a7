/**
 * Gemini CLI (`@google/gemini-cli`, pinned in dev/agents/package.json) with `magi-tools mcp`
 * as its MCP servers (`settings.json` `mcpServers`) and a mock Gemini API
 * (`streamGenerateContent`) as its model (`GOOGLE_GEMINI_BASE_URL`; `gemini -p`, non-interactive).
 *
 * Gemini CLI adds `wait_for_previous` to every tool schema it shows the model and passes the
 * model's value on to the server: the extra step sends it, as a model told to would.
 */

import { AGENTS, availability } from "./_install.ts";
import { runAgent } from "./_run.ts";
import { commonChecks, report } from "./_checks.ts";
import { Scenario } from "./_scenario.ts";
import { agentTest } from "./_test.ts";
import assert from "node:assert/strict";

const AGENT = AGENTS.gemini;

/** The step after the common ones: a call carrying Gemini CLI's own `wait_for_previous`. */
const WAIT_FOR_PREVIOUS = {
  tool: "lookup_color",
  args: { name: "navy", wait_for_previous: true },
};

await agentTest(AGENT, availability(AGENT), async (t, path) => {
  const scenario = await Scenario.start("gemini", { extraSteps: [WAIT_FOR_PREVIOUS] });
  try {
    const mcpServers = Object.fromEntries(
      Object.entries(scenario.servers).map(([name, entry]) => [
        name,
        // `trust`: Gemini CLI's own confirmation for the server's tools is skipped, so that
        // what is tested is the server's policy (its --approve) for the write tools.
        { ...entry, timeout: name === "magicancel" ? 5_000 : 60_000, trust: true },
      ]),
    );
    const settings = {
      security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      mcpServers,
    };
    await Deno.mkdir(`${scenario.home}/.gemini`, { recursive: true });
    await Deno.writeTextFile(
      `${scenario.home}/.gemini/settings.json`,
      JSON.stringify(settings, null, 2),
    );
    const run = await runAgent({
      command: path,
      args: ["-p", "Use the magi tools.", "--output-format", "text"],
      cwd: scenario.work,
      env: scenario.agentEnv({
        GEMINI_API_KEY: "mock-key",
        GOOGLE_GEMINI_BASE_URL: scenario.mock.url,
        GEMINI_CLI_TRUST_WORKSPACE: "true",
        GEMINI_TELEMETRY_ENABLED: "false",
      }),
      timeoutMs: 120_000,
    });
    report("gemini", run, scenario);
    console.error(`gemini initialize (probe): ${JSON.stringify(await scenario.clientInit())}`);
    // Gemini CLI checks the arguments against the listed schema itself: the invalid call never
    // reaches the server, and the model reads Gemini CLI's own validation error.
    await commonChecks(t, run, scenario, {
      invalidCall: /params\/name must be equal to one of the allowed values/,
      ask: "refused: the client has no elicitation",
      errorFlag: /"response":\{"error":/,
    });
    await t.step("a call with Gemini CLI's added wait_for_previous runs (issue 26 item 1)", () => {
      const text = scenario.mock.resultOf(scenario.steps.length - 1);
      assert.ok(text !== undefined, "the model never received the result of the last step");
      assert.match(text, /#000080/);
      assert.doesNotMatch(text, /Unrecognized key/);
    });
  } finally {
    await scenario.close();
  }
});
