/**
 * Claude Code (`@anthropic-ai/claude-code`, pinned in dev/agents/package.json) with
 * `magi-tools mcp` as its MCP servers (`--mcp-config`, `--strict-mcp-config`) and a mock
 * Anthropic Messages API as its model (`claude -p`, non-interactive).
 *
 * Claude Code declares MCP elicitation, and its `Elicitation` hook answers a server's
 * `elicitation/create` without a person: the main run accepts (the write tool under the default
 * policy, ask, runs), a second, short run declines (it does not).
 */

import assert from "node:assert/strict";
import { AGENTS, availability, ROOT } from "./_install.ts";
import { runAgent } from "./_run.ts";
import { commonChecks, report } from "./_checks.ts";
import { SAVE_NOTE_TEXT, Scenario, STEPS } from "./_scenario.ts";
import { agentTest } from "./_test.ts";

const AGENT = AGENTS.claude;
const HOOK = `${ROOT}tests/agents/fixtures/elicit_hook.ts`;

/** Run `claude -p` in the scenario, its Elicitation hook answering `answer`. */
async function runClaude(path: string, scenario: Scenario, answer: "accept" | "decline") {
  const mcpConfig = `${scenario.root}/mcp.json`;
  const mcpServers = Object.fromEntries(
    Object.entries(scenario.servers).map(([name, entry]) => [name, { type: "stdio", ...entry }]),
  );
  await Deno.writeTextFile(mcpConfig, JSON.stringify({ mcpServers }, null, 2));
  const hookLog = `${scenario.root}/elicitations.jsonl`;
  const hook = [
    Deno.execPath(),
    "run",
    "--no-prompt",
    `--allow-write=${hookLog}`,
    HOOK,
    answer,
    hookLog,
  ]
    .map((arg) => `'${arg}'`).join(" ");
  const settings = {
    hooks: { Elicitation: [{ matcher: "magi", hooks: [{ type: "command", command: hook }] }] },
  };
  const settingsFile = `${scenario.root}/settings.json`;
  await Deno.writeTextFile(settingsFile, JSON.stringify(settings, null, 2));
  const run = await runAgent({
    command: path,
    args: [
      "-p",
      "Use the magi tools.",
      "--mcp-config",
      mcpConfig,
      "--strict-mcp-config",
      "--settings",
      settingsFile,
      // Claude Code's own permission prompt for these servers' tools is answered here, so that
      // what is tested is the server's policy (its --approve) for the write tools.
      "--allowedTools",
      "mcp__magi,mcp__magiallow,mcp__magicancel,mcp__probe",
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
      // One setting for every server: long enough for the others' calls, shorter than the
      // wait of magicancel's wait_long.
      MCP_TOOL_TIMEOUT: "15000",
    }),
    timeoutMs: 120_000,
  });
  const elicitations = (await Deno.readTextFile(hookLog).catch(() => "")).split("\n")
    .filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
  return { run, elicitations };
}

await agentTest(AGENT, availability(AGENT), async (t, path) => {
  const scenario = await Scenario.start("anthropic");
  try {
    const { run, elicitations } = await runClaude(path, scenario, "accept");
    report("claude", run, scenario);
    await commonChecks(t, run, scenario, {
      ask: "approved through elicitation",
      errorFlag: /"is_error":true/,
    });
    await t.step("the server asked through elicitation/create, naming the write tool", () => {
      assert.equal(elicitations.length, 1, JSON.stringify(elicitations));
      assert.equal(elicitations[0]?.mcp_server_name, "magi");
      assert.match(String(elicitations[0]?.message), /save_note/);
    });
  } finally {
    await scenario.close();
  }

  // Declined: only the write call, then the final answer.
  const declined = await Scenario.start("anthropic", { steps: [STEPS[4]!] });
  try {
    const { run, elicitations } = await runClaude(path, declined, "decline");
    report("claude-decline", run, declined);
    await t.step(
      "a declined elicitation: the write tool is not run, the model is told",
      async () => {
        assert.equal(run.timedOut, false);
        assert.equal(run.code, 0);
        assert.equal(elicitations.length, 1, JSON.stringify(elicitations));
        const text = declined.mock.resultOf(0);
        assert.ok(text !== undefined, "the model never received the write call's result");
        assert.match(text, /not run|declined/i);
        assert.doesNotMatch(text, new RegExp(SAVE_NOTE_TEXT));
        assert.equal(
          await Deno.readTextFile(`${declined.work}/out/agent-note.txt`).catch(() => null),
          null,
        );
      },
    );
  } finally {
    await declined.close();
  }
});
