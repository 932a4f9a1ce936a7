import assert from "node:assert/strict";
import { join } from "node:path";
import { isReported } from "../../src/errors/mod.ts";
import { planTools, SourceWarnings, type ToolPlan } from "../../src/run/sources.ts";
import { SummaryWriter } from "../../src/summary/writer.ts";

function writer() {
  const lines: string[] = [];
  const decoder = new TextDecoder();
  const summary = new SummaryWriter((bytes) => {
    lines.push(...decoder.decode(bytes).split("\n").filter((line) => line !== ""));
    return Promise.resolve();
  });
  return { summary, lines };
}

Deno.test("SourceWarnings holds warnings until host.ready, then writes host.warning records", async () => {
  const { summary, lines } = writer();
  const warnings = new SourceWarnings();
  warnings.add({ code: "source_unavailable", message: "MCP server a failed", source: "mcp:a" });
  assert.deepEqual(lines, []);
  warnings.attach(summary);
  warnings.add({ code: "source_exited", message: "MCP server b exited", source: "mcp:b" });
  await summary.flush();
  const records = lines.map((line) => JSON.parse(line));
  assert.deepEqual(records.map((r) => [r.type, r.code, r.source]), [
    ["host.warning", "source_unavailable", "mcp:a"],
    ["host.warning", "source_exited", "mcp:b"],
  ]);
});

Deno.test("SourceWarnings writes no record after detach()", async () => {
  const { summary, lines } = writer();
  const warnings = new SourceWarnings();
  warnings.attach(summary);
  warnings.detach();
  warnings.add({ code: "source_exited", message: "late", source: "mcp:b" });
  await summary.flush();
  assert.deepEqual(lines, []);
});

/** A temporary project dir: `magi-tools.jsonc` (when `config` is given), nothing else. */
async function project(config?: unknown): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-plan-" });
  if (config !== undefined) {
    await Deno.writeTextFile(join(dir, "magi-tools.jsonc"), JSON.stringify(config));
  }
  return dir;
}

const MCP_ONLY = { mcpServers: { fx: { command: "fx-server" } } };
const OPENAPI_ONLY = { openapi: { pets: { spec: "pets.yaml" } } };

/** planTools() in `dir` with its `tools` folder as the default (not given) or given `--tools`. */
function planned(
  dir: string,
  options: { explicit?: boolean; noConfig?: boolean; mcp?: string[] } = {},
) {
  return planTools({
    toolDirs: [join(dir, "tools")],
    toolDirsExplicit: options.explicit ?? false,
    config: undefined,
    noConfig: options.noConfig ?? false,
    mcpConfigs: options.mcp ?? [],
    cwd: dir,
    // These configs start commands; their approval is tests/config/trust_test.ts's subject.
    trustConfig: () => Promise.resolve({ approved: true, by: "env" }),
  });
}

/** {@link planned}'s plan, or undefined when it failed (reported). */
async function plan(
  dir: string,
  options: { explicit?: boolean; noConfig?: boolean; mcp?: string[] } = {},
): Promise<ToolPlan | undefined> {
  const result = await planned(dir, options);
  return isReported(result) ? undefined : result;
}

Deno.test("planTools() loads no tool directory when ./tools is missing and the config has a source", async () => {
  for (const config of [MCP_ONLY, OPENAPI_ONLY]) {
    const dir = await project(config);
    try {
      const planned = await plan(dir);
      assert.deepEqual(planned?.toolDirs, [], JSON.stringify(config));
      assert.deepEqual(planned?.config.files, ["magi-tools.jsonc"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("planTools() keeps a missing ./tools (the loader's error) without a source to use instead", async () => {
  const cases: [string, unknown, { noConfig?: boolean }][] = [
    ["no config", undefined, {}],
    ["an empty config", {}, {}],
    ["only a disabled server", { mcpServers: { fx: { command: "x", enabled: false } } }, {}],
    ["--no-config", MCP_ONLY, { noConfig: true }],
  ];
  for (const [name, config, options] of cases) {
    const dir = await project(config);
    try {
      assert.deepEqual((await plan(dir, options))?.toolDirs, [join(dir, "tools")], name);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("planTools() keeps an explicit --tools DIR that is missing, whatever the config", async () => {
  const dir = await project(MCP_ONLY);
  try {
    assert.deepEqual((await plan(dir, { explicit: true }))?.toolDirs, [join(dir, "tools")]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("planTools() keeps a ./tools that exists, as a directory or not", async () => {
  const dir = await project(MCP_ONLY);
  try {
    await Deno.writeTextFile(join(dir, "tools"), "not a directory\n");
    assert.deepEqual((await plan(dir))?.toolDirs, [join(dir, "tools")]);
    await Deno.remove(join(dir, "tools"));
    await Deno.mkdir(join(dir, "tools"));
    assert.deepEqual((await plan(dir))?.toolDirs, [join(dir, "tools")]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("planTools() counts the servers of --mcp-config files (also with --no-config)", async () => {
  const dir = await project();
  try {
    await Deno.writeTextFile(join(dir, "claude.json"), JSON.stringify(MCP_ONLY));
    const planned = await plan(dir, { noConfig: true, mcp: ["claude.json"] });
    assert.deepEqual(planned?.toolDirs, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("planTools() resolves Reported (config) for a bad config", async () => {
  const dir = await project({ mcpServer: {} });
  try {
    assert.deepEqual(await planned(dir), { reported: true, code: "config" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
