import assert from "node:assert/strict";
import { recordSchemas } from "../../src/summary/_record_schemas.ts";
import * as records from "../../src/summary/records.ts";

import { rootUrl as ROOT } from "../_kit/mod.ts";

Deno.test("records.ts exports the very schemas recordSchemas() builds", () => {
  const built = recordSchemas();
  assert.equal(recordSchemas(), built, "built once");
  const names = Object.keys(built);
  assert.ok(names.length >= 19);
  for (const name of names) {
    assert.equal(
      (records as Record<string, unknown>)[name],
      (built as Record<string, unknown>)[name],
      name,
    );
  }
  const exported = Object.keys(records).filter((name) => name.endsWith("Schema"));
  assert.deepEqual(exported.sort(), [...names].sort(), "no schema export without a built one");
});

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier?: string } }[];
}

/** Modules `entry` loads when it runs (`deno info`; type-only imports are not followed). */
async function runtimeClosure(entry: string): Promise<Set<string>> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", new URL(entry, ROOT).pathname],
    stdout: "piped",
    stderr: "inherit",
    env: { NO_COLOR: "1" },
  }).output();
  assert.ok(output.success, `deno info ${entry} failed`);
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  const bySpecifier = new Map(info.modules.map((module) => [module.specifier, module]));
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of bySpecifier.get(specifier)?.dependencies ?? []) {
      const next = dependency.code?.specifier;
      if (next !== undefined && !seen.has(next)) stack.push(next);
    }
  }
  return seen;
}

Deno.test("the host's run path does not load records.ts (its schemas are built on first use)", async () => {
  const records = new URL("src/summary/records.ts", ROOT).href;
  const entries = [
    "src/summary/writer.ts",
    "src/tool/mod.ts",
    "src/toolset/mod.ts",
    "src/call/mod.ts",
    "src/run/mod.ts",
  ];
  for (const entry of entries) {
    const closure = await runtimeClosure(entry);
    assert.ok(closure.size > 1, `${entry}: a module graph`);
    assert.ok(closure.has(new URL(entry, ROOT).href), entry);
    assert.equal(closure.has(records), false, `${entry} loads records.ts`);
  }
  // Control: the library's summary surface does load it.
  assert.ok((await runtimeClosure("src/summary/mod.ts")).has(records));
});
