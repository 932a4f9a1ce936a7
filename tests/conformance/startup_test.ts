/**
 * Startup: admitted initialization failures (safe startup error codes, failed status,
 * restart required) and the context identity.
 *
 * The settings-driven tests use the reference backend's settings format
 * (`docs/reference-backend.md`), so they only run against it.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { Backend, withBackend, Workspace } from "./_harness.ts";
import { initialize, PART1_CAPABILITIES } from "./_fixtures.ts";

/**
 * Initialize in a workspace whose settings (text, or a preparation step) make startup fail
 * with `code`.
 */
async function expectStartupFailure(
  setup: string | ((ws: Workspace) => Promise<void>),
  code: string,
): Promise<void> {
  const ws = await Workspace.create();
  try {
    if (typeof setup === "string") await ws.writeSettings(setup);
    else await setup(ws);
    await withBackend({ workspace: ws }, async (b) => {
      const res = await b.request("initialize", { required_capabilities: [...PART1_CAPABILITIES] });
      assert.deepEqual(res.error, { code });
      const status = await b.call("status");
      assert.equal(status.state, "failed");
      assert.equal(status.readiness, code);
      assert.equal(status.selection, null);
      assert.equal(status.session_id, null);
      assert.equal(status.run_id, null);
      assert.deepEqual(
        (await b.request("session.create")).error,
        { code },
        "session ops answer the failure",
      );
      const again = await b.request("initialize", { required_capabilities: ["status"] });
      assert.deepEqual(again.error, { code: "already_initialized" }, "restart required");
      assert.deepEqual(await b.call("shutdown"), { state: "stopping" });
      await b.expectExit(0);
    });
  } finally {
    await ws.dispose();
  }
}

Deno.test({
  name: "malformed settings JSONC fails startup with configuration_invalid",
  ignore: !REFERENCE,
  fn: () =>
    expectStartupFailure(
      '{ "provider": "scripted", // comment\n  "model": }',
      "configuration_invalid",
    ),
});

Deno.test({
  name: "a provider without credentials fails startup with provider_unavailable",
  ignore: !REFERENCE,
  fn: () =>
    expectStartupFailure(
      JSON.stringify({
        provider: "anthropic",
        model: "claude-test",
        providers: { anthropic: { api_key_env: "MAGI_CONFORMANCE_UNSET_KEY" } },
      }),
      "provider_unavailable",
    ),
});

Deno.test({
  name: "an enabled MCP server fails startup with mcp_unavailable",
  ignore: !REFERENCE,
  fn: () =>
    expectStartupFailure(
      JSON.stringify({ mcp: { servers: { x: { enabled: true, command: "/bin/false" } } } }),
      "mcp_unavailable",
    ),
});

Deno.test({
  name: "an unusable storage root ($MC_HOME/sessions is a regular file) fails with startup_failed",
  ignore: !REFERENCE,
  fn: () =>
    expectStartupFailure(async (ws) => {
      await Deno.mkdir(ws.mcHome, { recursive: true });
      await Deno.writeTextFile(`${ws.mcHome}/sessions`, "not a directory\n");
    }, "startup_failed"),
});

Deno.test({
  name: "valid JSONC settings with comments and trailing commas start normally",
  ignore: !REFERENCE,
  fn: async () => {
    const ws = await Workspace.create();
    try {
      await ws.writeSettings('{\n  // the default provider\n  "provider": "scripted",\n}\n');
      await withBackend({ workspace: ws }, async (b) => {
        const status = (await initialize(b)).status as Record<string, unknown>;
        assert.equal(status.readiness, "ready");
        assert.equal(status.provider, "scripted");
      });
    } finally {
      await ws.dispose();
    }
  },
});

async function contextId(ws: Workspace, options: { cwd?: string; mcHome?: string } = {}) {
  let id = "";
  const env = options.mcHome === undefined ? {} : { MC_HOME: options.mcHome };
  await withBackend(
    { workspace: ws, ...(options.cwd ? { cwd: options.cwd } : {}), env },
    async (b) => {
      const status = (await initialize(b)).status as Record<string, unknown>;
      id = String(status.context_id);
      assert.match(id, /^[0-9a-f]{64}$/);
    },
  );
  return id;
}

Deno.test("context_id is equal for two children with the same cwd and MC_HOME", async () => {
  const ws = await Workspace.create();
  try {
    assert.equal(await contextId(ws), await contextId(ws));
  } finally {
    await ws.dispose();
  }
});

Deno.test("context_id differs for a different cwd", async () => {
  const ws = await Workspace.create();
  try {
    const other = await ws.otherCwd("elsewhere");
    assert.notEqual(await contextId(ws), await contextId(ws, { cwd: other }));
  } finally {
    await ws.dispose();
  }
});

Deno.test("context_id differs for a different MC_HOME root", async () => {
  const ws = await Workspace.create();
  try {
    assert.notEqual(await contextId(ws), await contextId(ws, { mcHome: `${ws.root}/other_home` }));
  } finally {
    await ws.dispose();
  }
});

Deno.test("context_id is the same through a symlinked cwd and MC_HOME alias", async () => {
  const ws = await Workspace.create();
  try {
    const first = await contextId(ws); // creates MC_HOME
    await Deno.symlink(ws.cwd, `${ws.root}/cwd_link`);
    await Deno.symlink(ws.mcHome, `${ws.root}/home_link`);
    assert.equal(await contextId(ws, { cwd: `${ws.root}/cwd_link` }), first, "cwd alias");
    assert.equal(await contextId(ws, { mcHome: `${ws.root}/home_link` }), first, "MC_HOME alias");
  } finally {
    await ws.dispose();
  }
});

Deno.test("initialize creates the runtime directories under MC_HOME", async () => {
  await withBackend({}, async (b: Backend) => {
    assert.equal(await b.workspace.exists(b.workspace.mcHome), false);
    await initialize(b);
    assert.equal(await b.workspace.exists(b.workspace.mcHome), true);
  });
});
