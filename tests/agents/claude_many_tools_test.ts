/**
 * Claude Code (pinned) with `magi-tools mcp` serving 40 tool modules plus the typed-output
 * fixture tools (over the 32-tool `client.tools` bound, which `mcp` does not have): the mock
 * model calls the 40th module and the typed `list_items`, and the results reach the model.
 */

import assert from "node:assert/strict";
import { AGENTS, availability, ROOT } from "./_install.ts";
import { MockModel } from "./_mock.ts";
import { runAgent } from "./_run.ts";
import { magiServer } from "./_scenario.ts";
import { agentTest } from "./_test.ts";

const AGENT = AGENTS.claude;
const FINAL = "Many tools are done (final-answer-m41).";

async function toolDir(root: string): Promise<string> {
  const dir = `${root}/tools`;
  await Deno.mkdir(dir, { recursive: true });
  for (let i = 0; i < 40; i++) {
    const name = `mod_${String(i).padStart(2, "0")}`;
    await Deno.writeTextFile(
      `${dir}/${name}.ts`,
      `import { z } from "zod";
import { defineTool } from ${JSON.stringify(`${ROOT}src/tool/define.ts`)};
export default defineTool({
  name: "${name}",
  description: "Trivial module number ${i}: returns its number.",
  input: z.strictObject({}),
  effect: "read",
  run: () => "module ${i} answered",
});
`,
    );
  }
  await Deno.copyFile(
    `${ROOT}tests/e2e/fixtures/typed_tools/list_items.ts`,
    `${dir}/list_items.ts`,
  );
  // The copy's import of define.ts is relative to the fixture directory: point it here.
  const text = await Deno.readTextFile(`${dir}/list_items.ts`);
  await Deno.writeTextFile(
    `${dir}/list_items.ts`,
    text.replace('"../../../../src/tool/define.ts"', JSON.stringify(`${ROOT}src/tool/define.ts`)),
  );
  return dir;
}

await agentTest(AGENT, availability(AGENT), async (t, path) => {
  const root = await Deno.makeTempDir({ prefix: "magi-agents-many-" });
  const mock = new MockModel({
    shape: "anthropic",
    steps: [{ tool: "mod_39", args: {} }, { tool: "list_items", args: {} }],
    finalText: FINAL,
    fixtureTools: ["mod_39", "list_items"],
  });
  try {
    const tools = await toolDir(root);
    const home = `${root}/home`;
    const work = `${root}/project`;
    await Deno.mkdir(home, { recursive: true });
    await Deno.mkdir(work, { recursive: true });
    const mcpConfig = `${root}/mcp.json`;
    await Deno.writeTextFile(
      mcpConfig,
      JSON.stringify({ mcpServers: { magi: { type: "stdio", ...magiServer(tools) } } }),
    );
    const proxy = mock.proxyUrl;
    const run = await runAgent({
      command: path,
      args: [
        "-p",
        "Use the magi tools.",
        "--mcp-config",
        mcpConfig,
        "--strict-mcp-config",
        "--allowedTools",
        "mcp__magi",
      ],
      cwd: work,
      env: {
        HOME: home,
        PATH: `${Deno.execPath().replace(/\/[^/]+$/, "")}:/usr/local/bin:/usr/bin:/bin`,
        TMPDIR: root,
        LANG: "C.UTF-8",
        NO_COLOR: "1",
        TERM: "dumb",
        HTTP_PROXY: proxy,
        HTTPS_PROXY: proxy,
        http_proxy: proxy,
        https_proxy: proxy,
        NO_PROXY: "127.0.0.1,localhost",
        no_proxy: "127.0.0.1,localhost",
        DENO_NO_UPDATE_CHECK: "1",
        ANTHROPIC_BASE_URL: mock.url,
        ANTHROPIC_API_KEY: "mock-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
        DISABLE_AUTOUPDATER: "1",
        ENABLE_TOOL_SEARCH: "false",
        MCP_TIMEOUT: "60000",
      },
      timeoutMs: 120_000,
    });
    console.error(`--- claude many tools: exit ${run.code}, ${run.ms} ms\n${run.stderr}`);
    await t.step("the agent lists all 41 tools to the model", () => {
      const body = mock.mainRequests[0]?.body as { tools?: { name: string }[] } | undefined;
      const magi = (body?.tools ?? []).filter((tool) => tool.name.startsWith("mcp__magi__"));
      assert.equal(magi.length, 41, JSON.stringify(body?.tools?.map((tool) => tool.name)));
    });
    await t.step("the 40th module and the typed tool answer the model", () => {
      assert.match(mock.resultOf(0) ?? "", /module 39 answered/);
      // The result object as the agent sent it; its content is the tool's JSON text.
      const typed = JSON.parse(mock.resultOf(1) ?? "{}") as { content?: unknown };
      const content = typeof typed.content === "string"
        ? typed.content
        : JSON.stringify(typed.content);
      assert.match(content, /"items":\[\{"id":"a","size":1\}/);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /final-answer-m41/);
    });
  } finally {
    await mock.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});
