/**
 * An MCP-only project: `magi-tools.jsonc` declares the fixture server and
 * there is no `./tools`. Every command that loads tools (`tools`, `run`,
 * `call`, `mcp`, `batch`, `inspect`) runs with the server's tools alone
 * (`planTools` in src/run/sources.ts); an explicit `--tools DIR` that is
 * missing, a `./tools` that is not a directory, or no source (no config,
 * `--no-config`) and no `./tools` is still exit 2 naming the directory.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { assertWholeItem, indexLines } from "../batch/_batch.ts";
import { FULL_CLI, ofType, one, type Rec, ROOT, runCli } from "../e2e/_cli.ts";
import { startInspector } from "../inspect/_inspector.ts";
import { denoServer, FIXTURE_SERVER, writeConfig } from "./_config.ts";

/**
 * The project's magi-tools.jsonc starts the fixture server, so it needs approval
 * (tests/security/project_config_test.ts); these tests approve it as CI would.
 */
const TRUSTED = { MAGI_TOOLS_TRUST_CONFIG: "1" };

/** The fixture server's tools, as the config names them (server `fx`, default prefix). */
const FX_TOOLS = ["fx_die", "fx_fail", "fx_hang", "fx_slow_ok", "fx_wait_cancel"];

/** Run `fn` in a new project dir holding only `magi-tools.jsonc` with the fixture server. */
async function inMcpProject(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = dirname(await writeConfig({ mcpServers: { fx: denoServer(FIXTURE_SERVER) } }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The tool names of a `tools` listing (one tab-separated line per tool, then the total). */
function listed(stdout: string): string[] {
  return stdout.split("\n").filter((line) => line.includes("\t")).map((line) =>
    line.split("\t")[0]!
  ).sort();
}

Deno.test("tools: an MCP-only project without ./tools lists the server's tools (exit 0)", async () => {
  await inMcpProject(async (dir) => {
    const result = await runCli(["tools"], { cwd: dir, raw: true, env: TRUSTED });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(listed(result.stdout), FX_TOOLS);
    assert.match(result.stdout, /^5 tool\(s\); initialize request /m);
    assert.doesNotMatch(result.stderr, /Tool directory/);
  });
});

Deno.test("run: an MCP-only project without ./tools calls the server's tool (exit 0)", async () => {
  await inMcpProject(async (dir) => {
    // The fixture server's tools are `write` (no readOnlyHint): approve the call.
    const result = await runCli(["run", "--approve", "allow", "fx_slow_ok {}"], {
      cwd: dir,
      env: TRUSTED,
    });
    assert.equal(result.code, 0, result.stderr);
    const tools = one(result.records, "host.ready")["tools"] as Rec[];
    assert.deepEqual(tools.map((tool) => tool["name"]).sort(), FX_TOOLS);
    assert.ok(tools.every((tool) => tool["source"] === "mcp"), "no module tools");
    const results = ofType(result.records, "tool.result");
    assert.deepEqual(results.map((r) => [r["name"], r["outcome"]]), [["fx_slow_ok", "success"]]);
    assert.equal(one(result.records, "turn.finished")["exit_code"], 0);
  });
});

Deno.test("call: an MCP-only project without ./tools calls the server's tool (exit 0)", async () => {
  await inMcpProject(async (dir) => {
    const result = await runCli(["call", "fx_slow_ok", "{}"], {
      cwd: dir,
      raw: true,
      env: TRUSTED,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "ok\n");
  });
});

Deno.test("batch: an MCP-only project without ./tools runs its items with the server's tools", async () => {
  await inMcpProject(async (dir) => {
    await Deno.writeTextFile(
      join(dir, "input.jsonl"),
      JSON.stringify({ id: "a", prompt: "fx_slow_ok {}" }) + "\n",
    );
    const out = join(dir, "out");
    const result = await runCli(["batch", "input.jsonl", "--out", out, "--approve", "allow"], {
      cwd: dir,
      raw: true,
      env: TRUSTED,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual((await indexLines(out)).map((entry) => [entry["id"], entry["exit_code"]]), [
      ["a", 0],
    ]);
    const records = await assertWholeItem(out, "a");
    const ready = records.find((record) => record["type"] === "host.ready")!;
    assert.deepEqual((ready["tools"] as Rec[]).map((tool) => tool["name"]).sort(), FX_TOOLS);
    const results = records.filter((record) => record["type"] === "tool.result");
    assert.deepEqual(results.map((r) => [r["name"], r["outcome"]]), [["fx_slow_ok", "success"]]);
  });
});

Deno.test("mcp: an MCP-only project without ./tools serves the server's tools over stdio", async () => {
  await inMcpProject(async (dir) => {
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      // fx_slow_ok is a write tool (no readOnlyHint): allowed, as this client cannot be asked.
      args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, "mcp", "--approve", "allow"],
      cwd: dir,
      env: { ...Deno.env.toObject(), ...TRUSTED },
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools() as { tools: { name: string }[] };
      assert.deepEqual(tools.map((tool) => tool.name).sort(), FX_TOOLS);
      const called = await client.callTool({ name: "fx_slow_ok", arguments: {} }) as {
        content: unknown[];
      };
      assert.deepEqual(called.content, [{ type: "text", text: "ok" }]);
    } finally {
      await client.close();
    }
  });
});

Deno.test("inspect: an MCP-only project without ./tools shows the server's tools", async () => {
  await inMcpProject(async (dir) => {
    const inspector = await startInspector({ cwd: dir, args: [], env: TRUSTED });
    try {
      const response = await fetch(`${inspector.base}/api/tools`, {
        headers: { authorization: `Bearer ${inspector.token}` },
      });
      assert.equal(response.status, 200);
      const view = await response.json() as { tools: { name: string }[]; errors: unknown[] };
      assert.deepEqual(view.tools.map((tool) => tool.name).sort(), FX_TOOLS);
      assert.deepEqual(view.errors, []);
    } finally {
      assert.equal(await inspector.stop(), 130, inspector.stderr());
    }
  });
});

Deno.test("an explicit --tools DIR that is missing is exit 2 naming it, even with MCP servers", async () => {
  await inMcpProject(async (dir) => {
    for (const command of [["tools"], ["run", "fx_slow_ok {}"], ["call", "fx_slow_ok"]]) {
      const result = await runCli([...command, "--tools", "missing"], {
        cwd: dir,
        raw: true,
        env: TRUSTED,
      });
      assert.equal(result.code, 2, `${command[0]}: ${result.stderr}`);
      assert.match(result.stderr, /Tool directory cannot be read: missing: directory not found/);
      assert.equal(result.stdout, "", command[0]);
    }
    // The default directory named explicitly is explicit too.
    const named = await runCli(["tools", "--tools", "./tools"], {
      cwd: dir,
      raw: true,
      env: TRUSTED,
    });
    assert.equal(named.code, 2);
    assert.match(named.stderr, /Tool directory cannot be read: \.\/tools: directory not found/);
  });
});

Deno.test("without a tool source (no config, --no-config) a missing ./tools is exit 2 naming it", async () => {
  await inMcpProject(async (dir) => {
    for (const command of [["tools", "--no-config"], ["run", "--no-config", "hi"]]) {
      const result = await runCli(command, { cwd: dir, raw: true });
      assert.equal(result.code, 2, `${command[0]}: ${result.stderr}`);
      assert.match(result.stderr, /Tool directory cannot be read: \.\/tools: directory not found/);
      assert.equal(result.stdout, "", command[0]);
    }
  });
  const empty = await Deno.makeTempDir({ prefix: "magi-tools-empty-" });
  try {
    const result = await runCli(["tools"], { cwd: empty, raw: true });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /Tool directory cannot be read: \.\/tools: directory not found/);
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("a ./tools that is not a directory is exit 2 naming it, even with MCP servers", async () => {
  await inMcpProject(async (dir) => {
    await Deno.writeTextFile(join(dir, "tools"), "not a directory\n");
    const result = await runCli(["tools"], { cwd: dir, raw: true, env: TRUSTED });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /Tool directory cannot be read: \.\/tools: not a directory/);
  });
});
