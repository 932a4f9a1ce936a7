/**
 * The optional features (MCP, OpenAPI) run from the checkout with the root lockfile, which lacks
 * their packages: a clear error naming the lockfile and the command, exit 2, never Deno's raw
 * lockfile diff (src/sources/features.ts).
 */
import assert from "node:assert/strict";
import {
  FEATURE_PACKAGES,
  featureInstallCommand,
  FeatureUnavailableError,
  type McpSourceModule,
  type OpenApiSourceModule,
} from "../../src/sources/features.ts";
import * as mcp from "../../src/mcp/mod.ts";
import type { McpServeModule } from "../../src/mcp/serve_api.ts";
import type { McpLoginModule } from "../../src/mcp/login_api.ts";
import * as openapi from "../../src/openapi/mod.ts";
import { cli, root as ROOT } from "../_kit/mod.ts";

Deno.test("src/mcp/mod.ts and src/openapi/mod.ts provide the interfaces the core loads them as", () => {
  // Type checks first of all: the core declares the interfaces without the features' npm
  // packages, the feature modules implement them.
  const sources: McpSourceModule = mcp;
  const serve: McpServeModule = mcp;
  const login: McpLoginModule = mcp;
  const apis: OpenApiSourceModule = openapi;
  assert.equal(typeof sources.startMcpSource, "function");
  assert.equal(typeof serve.serveRegistry, "function");
  assert.equal(typeof login.signIn, "function");
  assert.equal(typeof apis.startOpenApiSource, "function");
});

Deno.test("the public modules' graph, types included, needs only the root lockfile", async () => {
  // The sandbox lists a tool's module files with `deno info` under the root config (types
  // included); a tool module imports mod.ts as @magi/tools. With the frozen root lockfile this
  // fails if a type-only import reaches the MCP SDK or the OpenAPI packages.
  for (const entry of ["mod.ts", "cli.ts", "tools/text_stats.ts"]) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", `${ROOT}deno.json`, `${ROOT}${entry}`],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, `${entry}: ${new TextDecoder().decode(output.stderr)}`);
    const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
      modules: { specifier: string }[];
    };
    const npm = info.modules.map((m) => m.specifier).filter((s) => s.startsWith("npm:"));
    assert.ok(
      npm.every((s) => /^npm:\/(zod|jsonc-parser)@/.test(s)),
      `${entry} reaches ${npm.join(", ")}`,
    );
  }
});

async function rootLockCli(args: string[]) {
  // No --lock: the root config's frozen deno.lock (the demo's packages only).
  const { code, stdout, stderr } = await cli(args, {
    entry: "cli.ts",
    lock: false,
    backendSelfCheck: false,
  });
  return { code, stdout, stderr };
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

Deno.test("an OpenAPI source without read access to src/: exit 2 naming the directory", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${ROOT}deno.full.lock`,
      "--no-prompt",
      "--allow-read=tools,examples",
      "--allow-env",
      "--allow-run",
      "--allow-write",
      "--allow-net",
      `${ROOT}cli.ts`,
      "tools",
      "--config",
      "examples/openapi/magi-tools.jsonc",
      "--tools",
      "tools",
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 2, stderr);
  assert.match(stderr, /^magi-tools: OpenAPI is loaded from \/.*\/src\/ on first use/m);
  const escaped = `${ROOT}src/`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  assert.match(stderr, new RegExp(`add ${escaped} to --allow-read`));
  assert.doesNotMatch(stderr, /Uncaught/);
});

Deno.test("FEATURE_PACKAGES names exactly the npm specifiers of src/mcp/_sdk.ts and src/openapi/_deps.ts", async () => {
  const specs = async (file: string) => {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    const found = [...text.matchAll(/"npm:((?:@[^/@"]+\/)?[^/@"]+@[^/"]+)/g)].map((m) => m[1]!);
    return [...new Set(found)].sort();
  };
  assert.deepEqual([...FEATURE_PACKAGES.mcp].sort(), await specs("src/mcp/_sdk.ts"));
  assert.deepEqual([...FEATURE_PACKAGES.openapi].sort(), await specs("src/openapi/_deps.ts"));
});

Deno.test("a feature's missing optional packages: the error names them and the install command", () => {
  const missing = new Error(
    "Cannot find package '@modelcontextprotocol/sdk' imported from /app/node_modules/x.js",
  );
  const error = new FeatureUnavailableError("mcp", "packages", missing);
  assert.equal(error.code, "feature_unavailable");
  // Under Deno (this test) the command is `deno add`; Node.js gets `npm install`.
  assert.match(
    error.message,
    /^MCP needs the npm package @modelcontextprotocol\/sdk@1\.32\.2, .* run `deno add npm:@modelcontextprotocol\/sdk@1\.32\.2`/,
  );
  assert.equal(
    featureInstallCommand("openapi"),
    "deno add 'npm:@apidevtools/json-schema-ref-parser@^16.0.5' 'npm:ajv@^8.20.0' 'npm:js-yaml@^5.5.0'",
  );
});
