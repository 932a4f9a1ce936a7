/**
 * `catalog_providers=32` "includes three built-ins": besides the built-ins (and the scripted
 * provider, the reference backend's stand-in for the model), 29 cached providers are accepted
 * and the 30th is `catalog_limit`.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { withBackend } from "./_harness.ts";
import { CATALOG_PROVIDERS } from "../../src/protocol/limits.ts";
import { initializeAll, inWorkspace, writeCatalog, writeCatalogSettings } from "./_stored.ts";

const BUILT_INS = 3;

async function catalogWith(cached: number): Promise<Record<string, unknown>> {
  let answer: Record<string, unknown> = {};
  await inWorkspace(async (ws) => {
    const names = Array.from({ length: cached }, (_, i) => `cached${String(i).padStart(2, "0")}`);
    for (const name of names) await writeCatalog(ws, name, [{ id: "m1" }]);
    await writeCatalog(ws, "scripted", [{ id: "scripted-1" }]);
    await writeCatalogSettings(ws, ["scripted/*", `${names[0]}/*`]);
    await withBackend({ workspace: ws }, async (b) => {
      await initializeAll(b);
      const res = await b.request("model.catalog", { limit: 100 });
      answer = res.error === undefined ? { result: res.result } : { error: res.error };
      assert.equal((await b.call("status")).state, "idle", "connection usable");
    });
  });
  return answer;
}

Deno.test("model.catalog accepts 29 cached providers beside the three built-ins", {
  ignore: !REFERENCE,
}, async () => {
  const answer = await catalogWith(CATALOG_PROVIDERS - BUILT_INS);
  assert.equal(answer.error, undefined, JSON.stringify(answer.error));
  const choices = (answer.result as { choices: { provider: string }[] }).choices;
  assert.deepEqual([...new Set(choices.map((c) => c.provider))], ["cached00", "scripted"]);
});

Deno.test("model.catalog with a 30th cached provider is catalog_limit", {
  ignore: !REFERENCE,
}, async () => {
  const answer = await catalogWith(CATALOG_PROVIDERS - BUILT_INS + 1);
  assert.deepEqual(answer.error, { code: "catalog_limit" });
});
