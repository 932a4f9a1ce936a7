/**
 * Provider and model names that carry a control character (C0, DEL, C1) or look secret-like
 * are `null` in `status` and `status.selection` (as in the catalog), and the project's own
 * client accepts every such answer of the project's own backend.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { spawnClient } from "./_client.ts";
import { withBackend, Workspace } from "./_harness.ts";
import { initialize } from "./_fixtures.ts";

/**
 * Model names status must not echo that settings admit (settings reject C0 controls and DEL
 * with `configuration_invalid`; C1 controls pass them).
 */
const UNSAFE_MODELS: ReadonlyArray<readonly [string, string]> = [
  ["a C1 control (U+0085)", "scripted\u0085one"],
  ["a C1 control (U+0080)", "scripted\u0080one"],
  ["a C1 control (U+009F)", "scripted\u009fone"],
  ["a secret-like word", "my-api_key-model"],
  ["a key prefix", "sk-1234567890"],
];

async function withSettings(ws: Workspace, model: string): Promise<void> {
  await ws.writeSettings(JSON.stringify({ provider: "scripted", model }));
}

for (const [what, model] of UNSAFE_MODELS) {
  Deno.test(`status: a model name with ${what} is null in status and selection`, {
    ignore: !REFERENCE,
  }, async () => {
    const ws = await Workspace.create();
    try {
      await withSettings(ws, model);
      await withBackend({ workspace: ws }, async (b) => {
        const init = await initialize(b);
        const initStatus = init.status as Record<string, unknown>;
        assert.equal(initStatus.readiness, "ready", b.stderr);
        const status = await b.call("status");
        for (const s of [initStatus, status]) {
          assert.equal(s.provider, "scripted");
          assert.equal(s.model, null, JSON.stringify(s));
          const selection = s.selection as Record<string, unknown> | null;
          assert.notEqual(selection, null);
          assert.equal(selection!.provider, "scripted");
          assert.equal(selection!.model, null);
        }
        assert.deepEqual(b.violations, []);
      });
    } finally {
      await ws.dispose();
    }
  });
}

Deno.test("status: settings with a C0 control or DEL in the model name are configuration_invalid", {
  ignore: !REFERENCE,
}, async () => {
  for (const model of ["scripted\u0007bell", "scripted\tone", "scripted\u007fone"]) {
    const ws = await Workspace.create();
    try {
      await withSettings(ws, model);
      await withBackend({ workspace: ws }, async (b) => {
        const res = await b.request("initialize", { required_capabilities: ["status"] });
        assert.deepEqual(res.error, { code: "configuration_invalid" }, JSON.stringify(model));
      });
    } finally {
      await ws.dispose();
    }
  }
});

Deno.test("status: the project's client accepts the backend's answers for every unsafe name", {
  ignore: !REFERENCE,
}, async () => {
  for (const [what, model] of UNSAFE_MODELS) {
    const child = await spawnClient({ prepare: (ws) => withSettings(ws, model) });
    try {
      const init = await child.client.initialize({ required_capabilities: ["status"] });
      assert.equal(init.status.model, null, what);
      const status = await child.client.status();
      assert.equal(status.model, null, what);
      assert.equal(status.selection?.model, null, what);
      const session = await child.client.sessionCreate();
      assert.equal((await child.client.status()).session_id, session.session_id, what);
      assert.equal(child.client.failure, null, `${what}: ${child.stderr()}`);
    } finally {
      await child.dispose();
    }
  }
});
