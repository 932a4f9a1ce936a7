/**
 * The optional features (MCP, OpenAPI) run from the checkout with the root lockfile, which lacks
 * their packages: a clear error naming the lockfile and the command, exit 2, never Deno's raw
 * lockfile diff (src/config/features.ts).
 */
import assert from "node:assert/strict";
import type { McpSourceModule } from "../../src/config/features.ts";
import * as mcp from "../../src/mcp/mod.ts";
import { ROOT } from "../e2e/_cli.ts";

Deno.test("src/mcp/mod.ts provides what the config layer loads (McpSourceModule)", () => {
  // A type check first of all: the config layer declares the interface, src/mcp/ implements it.
  const module: McpSourceModule = mcp;
  assert.equal(typeof module.startMcpSource, "function");
});

async function rootLockCli(args: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    // No --lock: the root config's frozen deno.lock (the demo's packages only).
    args: ["run", "-A", `${ROOT}cli.ts`, ...args],
    cwd: ROOT,
    env: {
      NO_COLOR: "1",
      MAGI_CODE_AGENT:
        `${Deno.execPath()} run -A ${ROOT}src/reference_backend/main.ts serve --stdio`,
    },
    stdin: "null",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

function assertFeatureError(stderr: string, needs: RegExp): void {
  assert.match(stderr, needs, stderr);
  assert.match(stderr, /not in the lockfile this process runs with/, stderr);
  assert.match(stderr, /`deno task start …` \(it uses deno\.full\.lock\)/, stderr);
  assert.match(stderr, /--lock=deno\.full\.lock/, stderr);
  assert.doesNotMatch(stderr, /changes:|lockfile is out of date/i, "no raw lockfile diff");
}

Deno.test("an OpenAPI source with the root lockfile: exit 2 naming deno.full.lock", async () => {
  const result = await rootLockCli([
    "tools",
    "--config",
    "examples/openapi/magi-tools.jsonc",
    "--tools",
    "tools",
  ]);
  assert.equal(result.code, 2, result.stderr);
  assertFeatureError(result.stderr, /^magi-tools: OpenAPI needs the OpenAPI packages/m);
});

Deno.test("an MCP server with the root lockfile: exit 2 naming deno.full.lock", async () => {
  const result = await rootLockCli([
    "run",
    "--config",
    "examples/mcp.jsonc",
    "--tools",
    "tools",
    'everything_echo {"message":"hi"}',
  ]);
  assert.equal(result.code, 2, result.stderr);
  assertFeatureError(result.stderr, /^magi-tools: MCP needs the MCP SDK/m);
});

Deno.test("`mcp` with the root lockfile: exit 2 naming deno.full.lock", async () => {
  const result = await rootLockCli(["mcp", "--no-config", "--tools", "tools"]);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assertFeatureError(result.stderr, /^magi-tools mcp: MCP needs the MCP SDK/m);
});
