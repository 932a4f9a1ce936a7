/**
 * `model.catalog` from validated local caches only, `model.catalog.status` and
 * `model.refresh`: admission by `providers.catalog.enabled`, ordering, availability, effort
 * support, notices, the `catalog_*` bounds and sticky `stale_catalog`.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { type Backend, withBackend, type Workspace } from "./_harness.ts";
import {
  type CacheModel,
  initializeAll,
  inWorkspace,
  writeCatalog,
  writeCatalogSettings,
} from "./_stored.ts";

const opts = { ignore: !REFERENCE };
const NO_KEYS = { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "" };

type Choice = Record<string, unknown> & { provider: string; model: string };

async function withCatalog(
  setup: (ws: Workspace) => Promise<void>,
  body: (b: Backend, ws: Workspace) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  await inWorkspace(async (ws) => {
    await setup(ws);
    await withBackend({ workspace: ws, env: { ...NO_KEYS, ...env } }, async (b) => {
      await initializeAll(b);
      await body(b, ws);
    });
  });
}

async function standardCaches(ws: Workspace): Promise<void> {
  await writeCatalog(ws, "scripted", [
    { id: "scripted-1", name: "Scripted One", efforts: [] },
    { id: "scripted-2", name: "Scripted Two", efforts: ["low", "medium", "high"] },
    { id: "scripted-old", retired: true },
  ], "Scripted");
  await writeCatalog(ws, "openai", [
    { id: "gpt-b", name: "GPT\u0007B" },
    { id: "gpt-a", name: "GPT A", efforts: ["high"] },
    { id: "sk-abcdef1234567890" },
  ]);
  await writeCatalogSettings(ws, [
    "scripted/*",
    "openai/gpt-a",
    "openai/gpt-b",
    "openai/sk-abcdef1234567890",
  ]);
}

Deno.test("model.catalog without enabled choices is an empty complete cache-only page", async () => {
  await withBackend({}, async (b) => {
    await initializeAll(b);
    const page = await b.call("model.catalog");
    assert.deepEqual(Object.keys(page).sort(), [
      "choices",
      "complete",
      "next_cursor",
      "notices",
      "revision",
      "source",
    ]);
    assert.deepEqual(page.choices, []);
    assert.equal(page.complete, true);
    assert.equal(page.source, "cache_only");
  });
});

Deno.test("model.catalog admits enabled cached choices in provider/model order", opts, async () => {
  await withCatalog(standardCaches, async (b) => {
    const page = await b.call("model.catalog", { limit: 100 });
    const choices = page.choices as Choice[];
    assert.deepEqual(choices.map((c) => `${c.provider}/${c.model}`), [
      "openai/gpt-a",
      "openai/gpt-b",
      "scripted/scripted-1",
      "scripted/scripted-2",
    ]);
    const [gptA, gptB, one, two] = choices as [Choice, Choice, Choice, Choice];
    assert.deepEqual(Object.keys(gptA).sort(), [
      "availability",
      "effort_support",
      "model",
      "model_name",
      "permitted_efforts",
      "provider",
      "provider_name",
      "selection_id",
    ]);
    assert.equal(gptA.availability, "authentication_unavailable");
    assert.equal(gptA.effort_support, "supported");
    assert.deepEqual(gptA.permitted_efforts, ["default", "high"]);
    assert.equal(gptB.model_name, null, "unsafe display name");
    assert.equal(gptB.effort_support, "unknown");
    assert.deepEqual(gptB.permitted_efforts, ["default"]);
    assert.equal(one.availability, "available");
    assert.equal(one.effort_support, "unsupported");
    assert.equal(one.provider_name, "Scripted");
    assert.deepEqual(two.permitted_efforts, ["default", "low", "medium", "high"]);
    assert.match(String(two.selection_id), /^[A-Za-z0-9._-]{1,64}$/);
    assert.ok(choices.every((c) => c.model !== "scripted-old"), "retired excluded");
    assert.deepEqual(page.notices, ["catalog_entries_omitted_unsafe"]);
  });
});

Deno.test(
  "a relevant provider without a valid cache gives provider_catalog_unavailable",
  opts,
  async () => {
    await withCatalog(async (ws) => {
      await writeCatalog(ws, "scripted", [{ id: "scripted-1" }, { id: "scripted-2" }]);
      await Deno.writeTextFile(`${ws.mcHome}/catalog/gemini.json`, "{broken");
      await writeCatalogSettings(ws, ["scripted/scripted-1", "anthropic/claude-x", "gemini/g1"]);
    }, async (b) => {
      const page = await b.call("model.catalog");
      assert.deepEqual(page.notices, ["provider_catalog_unavailable"]);
      assert.deepEqual((page.choices as Choice[]).map((c) => c.model), ["scripted-1"]);
    });
  },
);

Deno.test(
  "model.catalog pages by limit; a mutated cache is stale_catalog, stickily",
  opts,
  async () => {
    await withCatalog(standardCaches, async (b, ws) => {
      const first = await b.call("model.catalog", { limit: 1 });
      const second = await b.call("model.catalog", {
        revision: first.revision,
        cursor: first.next_cursor,
        limit: 1,
      });
      assert.equal((second.choices as Choice[])[0]?.model, "gpt-b");
      const path = `${ws.mcHome}/catalog/scripted.json`;
      const original = await Deno.readTextFile(path);
      await Deno.writeTextFile(path, original.replace("Scripted Two", "Scripted 2"));
      const next = { revision: first.revision, cursor: second.next_cursor, limit: 1 };
      assert.deepEqual((await b.request("model.catalog", next)).error, { code: "stale_catalog" });
      await Deno.writeTextFile(path, original);
      assert.deepEqual((await b.request("model.catalog", next)).error, { code: "stale_catalog" });
      const fresh = await b.call("model.catalog", { limit: 1 });
      const latest = await b.call("model.catalog", { limit: 1 });
      assert.notEqual(latest.revision, fresh.revision, "unchanged content, new revision");
      const replaced = await b.request("model.catalog", {
        revision: fresh.revision,
        cursor: fresh.next_cursor,
        limit: 1,
      });
      assert.deepEqual(replaced.error, { code: "stale_catalog" }, "a fresh request replaces");
      const crossed = await b.request("model.catalog", {
        revision: latest.revision,
        cursor: fresh.next_cursor,
        limit: 1,
      });
      assert.deepEqual(crossed.error, { code: "stale_catalog" }, "an old snapshot's cursor");
    });
  },
);

const LIMIT_CASES: [string, string, (ws: Workspace) => Promise<void>][] = [
  ["more than 2,048 cached models", "catalog_limit", (ws) =>
    writeCatalog(
      ws,
      "scripted",
      Array.from({ length: 2_049 }, (_, i): CacheModel => ({ id: `m${i}` })),
    ).then(() => {})],
  [
    "a cache file over 1 MiB",
    "catalog_limit",
    (ws) => writeCatalog(ws, "scripted", [{ id: "m", name: "x".repeat(1_048_577) }]).then(() => {}),
  ],
  [
    "an overlong model identifier",
    "catalog_limit",
    (ws) => writeCatalog(ws, "scripted", [{ id: "m".repeat(257) }]).then(() => {}),
  ],
  [
    "duplicate cached models",
    "catalog_unavailable",
    (ws) => writeCatalog(ws, "scripted", [{ id: "m" }, { id: "m" }]).then(() => {}),
  ],
  ["a symlinked cache", "catalog_unavailable", async (ws) => {
    const real = await writeCatalog(ws, "gemini", [{ id: "g" }]);
    await Deno.symlink(real, `${ws.mcHome}/catalog/scripted.json`);
  }],
];

for (const [name, code, setup] of LIMIT_CASES) {
  Deno.test(`model.catalog with ${name} is ${code}, with no partial page`, opts, async () => {
    await withCatalog(async (ws) => {
      await setup(ws);
      await writeCatalogSettings(ws, ["scripted/*"]);
    }, async (b) => {
      assert.deepEqual((await b.request("model.catalog")).error, { code });
      assert.equal((await b.call("status")).state, "idle", "connection usable");
    });
  });
}

Deno.test("model.catalog.status reports each provider's state and reasons", opts, async () => {
  await withCatalog(async (ws) => {
    await writeCatalog(ws, "scripted", [{ id: "scripted-1" }]);
    await writeCatalog(ws, "openai", [{ id: "gpt-a" }, { id: "gpt-b" }]);
    await writeCatalogSettings(ws, ["scripted/*", "openai/*", "anthropic/claude-x"]);
  }, async (b) => {
    const status = await b.call("model.catalog.status");
    const byName = new Map(
      (status.providers as Record<string, unknown>[]).map((p) => [p.provider, p]),
    );
    assert.deepEqual([...byName.keys()], ["anthropic", "gemini", "openai", "scripted"]);
    assert.deepEqual(byName.get("scripted"), {
      provider: "scripted",
      state: "available",
      cached_models: 1,
      reasons: [],
    });
    assert.deepEqual(byName.get("openai"), {
      provider: "openai",
      state: "authentication_unavailable",
      cached_models: 2,
      reasons: ["authentication_missing"],
    });
    assert.deepEqual(byName.get("anthropic"), {
      provider: "anthropic",
      state: "catalog_unavailable",
      cached_models: 0,
      reasons: ["authentication_missing", "provider_catalog_unavailable"],
    }, "no key and no cache: both reasons");
    assert.deepEqual(byName.get("gemini"), {
      provider: "gemini",
      state: "not_enabled",
      cached_models: 0,
      reasons: ["provider_not_enabled"],
    });
  });
});

Deno.test(
  "model.refresh rewrites a cache from its local source and stales the catalog",
  opts,
  async () => {
    await withCatalog(async (ws) => {
      await writeCatalog(ws, "scripted", [{ id: "scripted-1" }, { id: "scripted-2" }]);
      await Deno.writeTextFile(
        `${ws.mcHome}/scripted-source.json`,
        JSON.stringify({
          version: 1,
          provider: "scripted",
          models: [{ id: "scripted-1" }, { id: "scripted-3", efforts: ["max"] }],
        }),
      );
      await writeCatalogSettings(ws, ["scripted/*"], {
        providers: {
          scripted: { refresh_source: "scripted-source.json" },
          openai: { refresh_source: "/nonexistent.json" },
        },
      });
    }, async (b) => {
      const before = await b.call("model.catalog", { limit: 1 });
      assert.notEqual(before.next_cursor, null);
      const refreshed = await b.call("model.refresh", { provider: "scripted" });
      assert.deepEqual(refreshed, { provider: "scripted", refreshed: true, models: 2 });
      const old = await b.request("model.catalog", {
        revision: before.revision,
        cursor: before.next_cursor,
        limit: 1,
      });
      assert.deepEqual(old.error, { code: "stale_catalog" });
      const after = await b.call("model.catalog");
      assert.deepEqual((after.choices as Choice[]).map((c) => c.model), [
        "scripted-1",
        "scripted-3",
      ]);
      const errors: [Record<string, unknown>, string][] = [
        [{ provider: "nobody" }, "selection_invalid"],
        [{ provider: "openai" }, "provider_unavailable"],
        [{ provider: "gemini" }, "provider_unavailable"],
        [{ provider: "" }, "invalid_params"],
      ];
      for (const [params, code] of errors) {
        assert.deepEqual((await b.request("model.refresh", params)).error, { code }, code);
      }
    });
  },
);

Deno.test("model.refresh without a readable source is catalog_unavailable", opts, async () => {
  await withCatalog(async (ws) => {
    await writeCatalogSettings(ws, [], {
      providers: { openai: { refresh_source: "missing.json" } },
    });
  }, async (b) => {
    for (const provider of ["openai", "scripted"]) {
      const res = await b.request("model.refresh", { provider });
      assert.deepEqual(res.error, { code: "catalog_unavailable" }, provider);
    }
  }, { OPENAI_API_KEY: "test-key-value" });
});
