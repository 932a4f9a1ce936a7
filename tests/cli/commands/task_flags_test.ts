/** `tools --task-flags`: the init project's task permissions, derived from the config. */
import assert from "node:assert/strict";
import { parseConfigText } from "../../../src/config/mod.ts";
import { configGrants, taskFlags } from "../../../src/cli/commands/_task_flags.ts";
import { runCli } from "../../e2e/_cli.ts";

Deno.test("configGrants() names the config's env variables and the hosts the host connects to", () => {
  const read: string[] = [];
  const config = parseConfigText(
    JSON.stringify({
      mcpServers: {
        remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "${TOKEN}" } },
        local: { url: "http://127.0.0.2:9000/mcp" },
        off: { url: "https://off.example.com/mcp", enabled: false },
        fs: { command: "fs-server" },
      },
      openapi: {
        books: {
          spec: "https://specs.example.com/books.yaml",
          auth: { header: "X-Key", valueFromEnv: "BOOKS_KEY" },
        },
      },
    }),
    {
      file: "magi-tools.jsonc",
      env: (name) => {
        read.push(name);
        return "t";
      },
    },
  );
  const grants = configGrants(config, read);
  assert.deepEqual(grants.env, ["TOKEN", "BOOKS_KEY"]);
  assert.deepEqual(grants.net, ["mcp.example.com:443", "127.0.0.2:9000", "specs.example.com:443"]);
  assert.deepEqual(taskFlags(grants), [
    "--no-prompt",
    "--allow-read",
    "--allow-write",
    "--allow-run",
    "--allow-env=MAGI_CODE_AGENT,PATH,NO_COLOR,FORCE_COLOR,HOME,XDG_CONFIG_HOME,APPDATA,MAGI_TOOLS_TRUST_CONFIG,MAGI_TOOLS_INVOCATION,TOKEN,BOOKS_KEY",
    "--allow-net=127.0.0.1,mcp.example.com:443,127.0.0.2:9000,specs.example.com:443",
    "--v8-flags=--max-semi-space-size=4",
  ]);
});

Deno.test("tools --task-flags: a broken config still prints the base flags (exit 0)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-task-flags-" });
  try {
    await Deno.writeTextFile(`${dir}/magi-tools.jsonc`, '{ "mcpServers": { "x": 1 } }');
    const result = await runCli(["tools", "--task-flags"], { raw: true, cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout,
      "--no-prompt --allow-read --allow-write --allow-run --allow-env=MAGI_CODE_AGENT,PATH,NO_COLOR,FORCE_COLOR,HOME,XDG_CONFIG_HOME,APPDATA,MAGI_TOOLS_TRUST_CONFIG,MAGI_TOOLS_INVOCATION --allow-net=127.0.0.1 --v8-flags=--max-semi-space-size=4\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tools --task-flags cannot be combined with --deno-flags", async () => {
  const result = await runCli(["tools", "--task-flags", "--deno-flags"], { raw: true });
  assert.equal(result.code, 2);
  assert.match(result.stderr, /Options --deno-flags and --task-flags cannot be combined/);
});
