import assert from "node:assert/strict";
import { mergeLayers, parseSettingsText } from "../../../src/reference_backend/startup/settings.ts";
import { contextIdOf, runStartup } from "../../../src/reference_backend/startup/startup.ts";

async function workspace(): Promise<{ root: string; home: string; cwd: string }> {
  const root = await Deno.makeTempDir();
  await Deno.mkdir(`${root}/cwd/.magi-code`, { recursive: true });
  return { root, home: `${root}/home`, cwd: `${root}/cwd` };
}

function start(ws: { home: string; cwd: string }, env: Record<string, string> = {}) {
  const vars: Record<string, string> = { MC_HOME: ws.home, ...env };
  return runStartup({
    cwd: ws.cwd,
    env: (name) => vars[name],
    signal: new AbortController().signal,
  });
}

Deno.test("parseSettingsText() accepts JSONC and rejects non-objects", () => {
  assert.deepEqual(parseSettingsText('{ // c\n "provider": "scripted", }'), {
    provider: "scripted",
  });
  assert.equal(parseSettingsText("[1]"), null);
  assert.equal(parseSettingsText("{"), null);
});

Deno.test("mergeLayers() lets project settings override global ones", () => {
  const merged = mergeLayers([
    { dir: "/g", value: { model: "m1", scenario: "s.jsonc", mcp: { servers: { a: {} } } } },
    { dir: "/p", value: { model: "m2", mcp: { servers: { a: { enabled: false } } } } },
  ]);
  assert.ok(merged.ok);
  assert.equal(merged.settings.model, "m2");
  assert.equal(merged.settings.scenario, "/g/s.jsonc");
  assert.deepEqual(merged.settings.enabledMcpServers, []);
});

const BAD_SETTINGS: [string, unknown, string][] = [
  ["a non-string provider", { provider: 1 }, "$.provider: must be a non-empty string"],
  ["an empty model", { model: "" }, "$.model: must be a non-empty string"],
  ["providers not an object", { providers: [] }, "$.providers: must be an object"],
  [
    "a non-boolean enabled",
    { mcp: { servers: { "my server": { enabled: "yes" } } } },
    '$.mcp.servers["my server"].enabled: must be true or false',
  ],
];
for (const [name, value, reason] of BAD_SETTINGS) {
  Deno.test(`mergeLayers() rejects ${name}, naming the file and JSON path`, () => {
    const merged = mergeLayers([
      { dir: "/p", value: value as Record<string, unknown>, file: "/p/settings.json" },
    ]);
    assert.equal(merged.ok, false);
    assert.ok(!merged.ok);
    assert.equal(merged.code, "configuration_invalid");
    assert.ok(
      merged.reason.startsWith(`settings /p/settings.json: ${reason}`),
      merged.reason,
    );
  });
}

Deno.test("runStartup() is ready by default with the scripted provider", async () => {
  const ws = await workspace();
  try {
    const outcome = await start(ws);
    assert.ok(outcome.ok);
    assert.equal(outcome.runtime.provider, "scripted");
    assert.equal(outcome.runtime.model, "scripted-1");
    assert.match(outcome.runtime.contextId, /^[0-9a-f]{64}$/);
    assert.equal((await Deno.stat(`${ws.home}/sessions`)).isDirectory, true);
  } finally {
    await Deno.remove(ws.root, { recursive: true });
  }
});

const FAILURES: [string, string, Record<string, string>, string][] = [
  ["malformed global settings", "{", {}, "configuration_invalid"],
  ["an unknown provider", '{"provider":"nope","model":"m"}', {}, "configuration_invalid"],
  ["openai without a key", '{"provider":"openai","model":"gpt"}', {}, "provider_unavailable"],
  ["an enabled MCP server", '{"mcp":{"servers":{"x":{}}}}', {}, "mcp_unavailable"],
  ["an invalid scenario", "{}", { MAGI_SCENARIO: "missing.jsonc" }, "configuration_invalid"],
];
for (const [name, settings, env, code] of FAILURES) {
  Deno.test(`runStartup() maps ${name} to ${code}`, async () => {
    const ws = await workspace();
    try {
      await Deno.mkdir(ws.home, { recursive: true });
      await Deno.writeTextFile(`${ws.home}/settings.json`, settings);
      const outcome = await start(ws, env);
      assert.equal(outcome.ok, false);
      assert.equal(!outcome.ok && outcome.code, code);
    } finally {
      await Deno.remove(ws.root, { recursive: true });
    }
  });
}

Deno.test("runStartup() admits openai when its key is set", async () => {
  const ws = await workspace();
  try {
    await Deno.writeTextFile(
      `${ws.cwd}/.magi-code/settings.json`,
      '{"provider":"openai","model":"gpt"}',
    );
    const outcome = await start(ws, { OPENAI_API_KEY: "k" });
    assert.ok(outcome.ok);
    assert.equal(outcome.runtime.provider, "openai");
  } finally {
    await Deno.remove(ws.root, { recursive: true });
  }
});

Deno.test("runStartup() reports startup_cancelled when aborted", async () => {
  const ws = await workspace();
  try {
    const abort = new AbortController();
    abort.abort();
    const outcome = await runStartup({
      cwd: ws.cwd,
      env: (name) => name === "MC_HOME" ? ws.home : undefined,
      signal: abort.signal,
    });
    assert.equal(!outcome.ok && outcome.code, "startup_cancelled");
  } finally {
    await Deno.remove(ws.root, { recursive: true });
  }
});

Deno.test("contextIdOf() differs by cwd and by storage root", () => {
  const a = contextIdOf("/w", "/h");
  assert.equal(a, contextIdOf("/w", "/h"));
  assert.notEqual(a, contextIdOf("/w2", "/h"));
  assert.notEqual(a, contextIdOf("/w", "/h2"));
});

Deno.test("safeName() hides secret-like provider and model names", async () => {
  const { safeName } = await import("../../../src/reference_backend/catalog/providers.ts");
  assert.equal(safeName("scripted-1"), "scripted-1");
  assert.equal(safeName("gpt-4o-mini"), "gpt-4o-mini");
  assert.equal(safeName("sk-abc"), null);
  assert.equal(safeName("my-api-key"), null);
  assert.equal(safeName("A".repeat(40)), null);
});
