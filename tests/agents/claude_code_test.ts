/**
 * Claude Code (`@anthropic-ai/claude-code`, pinned in tests/agents/package.json) with
 * `magi-tools mcp` as its MCP servers (`--mcp-config`, `--strict-mcp-config`) and a mock
 * Anthropic Messages API as its model (`claude -p`, non-interactive).
 */

import { AGENTS, availability } from "./_install.ts";
import { runAgent } from "./_run.ts";
import { commonChecks, report, Scenario } from "./_scenario.ts";
import { agentTest } from "./_test.ts";

const AGENT = AGENTS.claude;

await agentTest(AGENT, availability(AGENT), async (t, path) => {
  const scenario = await Scenario.start("anthropic");
  try {
    const mcpConfig = `${scenario.root}/mcp.json`;
    const mcpServers = Object.fromEntries(
      Object.entries(scenario.servers).map((
        [name, entry],
      ) => [name, { type: "stdio", ...entry }]),
    );
    await Deno.writeTextFile(
      mcpConfig,
      JSON.stringify({ mcpServers }, null, 2),
    );
    const run = await runAgent({
      command: path,
      args: [
        "-p",
        "Use the magi tools.",
        "--mcp-config",
        mcpConfig,
        "--strict-mcp-config",
        // Claude Code's own permission prompt for these servers' tools is answered here, so that
        // what is tested is the server's policy (its --approve) for the write tools.
        "--allowedTools",
        "mcp__magi,mcp__magi_allow,mcp__probe",
      ],
      cwd: scenario.work,
      env: scenario.agentEnv({
        ANTHROPIC_BASE_URL: scenario.mock.url,
        ANTHROPIC_API_KEY: "mock-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
        DISABLE_AUTOUPDATER: "1",
        // The MCP tools in the first request itself, not deferred behind ToolSearch.
        ENABLE_TOOL_SEARCH: "false",
        MCP_TIMEOUT: "60000",
        MCP_TOOL_TIMEOUT: "60000",
      }),
      timeoutMs: 120_000,
    });
    report("claude", run, scenario);
    console.error(
      `claude initialize (probe): ${
        JSON.stringify(await scenario.clientInit())
      }`,
    );
    await commonChecks(t, run, scenario);
  } finally {
    await scenario.close();
  }
});
