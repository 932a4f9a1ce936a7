/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`,
 * pinned in deno.json/deno.lock, run with Deno because it needs Node 22
 * APIs): `magi-tools mcp --http` serving `tests/mcp/conformance_tools`
 * against the applicable server scenarios, and the bridge side
 * (`conformance_client.ts`: `run` with the scenario server as an MCP source)
 * against the client scenarios. Results and the scenarios that do not apply:
 * docs/mcp.md.
 */

import assert from "node:assert/strict";
import { DEV_CONFIG, ROOT } from "../e2e/_cli.ts";
import { startAuthProxy } from "./_auth_proxy.ts";
import { startMcpHttp } from "./_http.ts";

const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";

/** The server scenarios `mcp --http` passes (docs/mcp.md lists the rest and why). */
const SERVER_SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "dns-rebinding-protection",
  "tools-call-simple-text",
  "tools-call-error",
  "server-sse-multiple-streams",
  "json-schema-2020-12",
  "tools-call-with-progress",
];

/** The client scenarios the bridge passes. */
const CLIENT_SCENARIOS = ["initialize", "tools_call"];

async function suite(args: string[]): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...DEV_CONFIG, "-A", SUITE, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, text);
  return text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");
}

Deno.test("conformance: mcp --http passes the applicable server scenarios", async () => {
  const server = await startMcpHttp({ tools: `${ROOT}tests/mcp/conformance_tools` });
  // The suite cannot send the bearer token `mcp --http` requires: a proxy adds it and forwards
  // everything else as sent (Host and Origin too, so dns-rebinding-protection still meets the
  // server's own check).
  const proxy = await startAuthProxy(server.url, server.token!);
  try {
    for (const scenario of SERVER_SCENARIOS) {
      const text = await suite(["server", "--url", proxy.url, "--scenario", scenario]);
      assert.match(text, /Passed: (\d+)\/\1, 0 failed/, `${scenario}:\n${text}`);
      assert.doesNotMatch(text, /Passed: 0\/0/, `${scenario} ran no check`);
    }
  } finally {
    await proxy.close();
    assert.equal(await server.stop(), 0, server.stderr());
  }
});

Deno.test("conformance: the bridge (run with an MCP source) passes the client scenarios", async () => {
  for (const scenario of CLIENT_SCENARIOS) {
    const text = await suite([
      "client",
      "--command",
      `${Deno.execPath()} run ${DEV_CONFIG.join(" ")} -A ${ROOT}tests/mcp/conformance_client.ts`,
      "--scenario",
      scenario,
    ]);
    assert.match(text, /Passed: (\d+)\/\1, 0 failed/, `${scenario}:\n${text}`);
    assert.doesNotMatch(text, /Passed: 0\/0/, `${scenario} ran no check`);
  }
});
