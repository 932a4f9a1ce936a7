import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  CACHE_DIR_ENV,
  defaultDir,
  describeModulesCached,
  moduleKeys,
} from "../../src/toolset/describe_cache.ts";
import { loadToolDirs } from "../../src/toolset/discovery.ts";
import { describeModules, type ModuleRef } from "../../src/sandbox/describe_client.ts";
import type { DescribeResult } from "../../src/sandbox/describe.ts";

import { rootDir as ROOT } from "../_kit/mod.ts";
const DEFINE = new URL("../../src/tool/define.ts", import.meta.url).href;

function toolSource(description: string): string {
  return [
    `import { z } from "zod";`,
    `import { defineTool } from ${JSON.stringify(DEFINE)};`,
    `import { SUFFIX } from "./_helper.ts";`,
    `export default defineTool({`,
    `  name: "cached_" + SUFFIX,`,
    `  description: ${JSON.stringify(description)},`,
    `  input: z.strictObject({}),`,
    `  effect: "read",`,
    `  permissions: { read: ["."] },`,
    `  run: () => "ok",`,
    `});`,
    ``,
  ].join("\n");
}

/** A tool directory and a cache directory; `describe` counts the modules sent to a child. */
async function fixture() {
  const base = await Deno.makeTempDir({ prefix: "magi-tools-describe-cache-" });
  const tools = join(base, "tools");
  const cache = join(base, "cache");
  await Deno.mkdir(tools);
  await Deno.writeTextFile(join(tools, "_helper.ts"), `export const SUFFIX = "one";\n`);
  await Deno.writeTextFile(join(tools, "a.ts"), toolSource("first"));
  await Deno.writeTextFile(join(tools, "b.ts"), toolSource("second").replace("+ SUFFIX", '+ "b"'));
  const described: string[][] = [];
  const describe: typeof describeModules = (modules, options) => {
    described.push(modules.map((module) => module.file));
    return describeModules(modules, options);
  };
  const modules: ModuleRef[] = ["a.ts", "b.ts"].map((name) => ({
    file: name,
    url: pathToFileURL(join(tools, name)).href,
  }));
  const run = (options: { denoPath?: string } = {}) =>
    describeModulesCached(modules, { cwd: ROOT, ...options }, { dir: cache, describe });
  const entries = async () => {
    const names: string[] = [];
    for await (const entry of Deno.readDir(cache)) {
      if (entry.name.endsWith(".json")) names.push(entry.name);
    }
    return names.sort();
  };
  return { base, tools, cache, modules, described, run, entries };
}

function okTool(result: DescribeResult | undefined) {
  assert.ok(result?.ok, JSON.stringify(result));
  return result.tool;
}

Deno.test("a warm cache answers without a describe child", async () => {
  const f = await fixture();
  try {
    const cold = await f.run();
    assert.deepEqual(f.described, [["a.ts", "b.ts"]]);
    assert.equal(okTool(cold[0]).name, "cached_one");
    assert.equal(okTool(cold[1]).name, "cached_b");
    assert.equal((await f.entries()).length, 2);
    const warm = await f.run();
    assert.deepEqual(f.described, [["a.ts", "b.ts"]], "no second child");
    assert.deepEqual(warm, cold);
    // And no process at all: a deno path that cannot start would fail any child.
    const noDeno = await describeModulesCached(
      f.modules,
      { cwd: ROOT, denoPath: join(f.base, "no-such-deno") },
      { dir: f.cache },
    );
    assert.deepEqual(noDeno, cold);
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});

Deno.test("a changed module is described again; the others come from the cache", async () => {
  const f = await fixture();
  try {
    await f.run();
    await Deno.writeTextFile(join(f.tools, "a.ts"), toolSource("first, changed"));
    const results = await f.run();
    assert.deepEqual(f.described, [["a.ts", "b.ts"], ["a.ts"]]);
    assert.equal(okTool(results[0]).description, "first, changed");
    assert.equal(okTool(results[1]).description, "second");
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});

Deno.test("a changed local import invalidates the modules that import it", async () => {
  const f = await fixture();
  try {
    await f.run();
    await Deno.writeTextFile(join(f.tools, "_helper.ts"), `export const SUFFIX = "two";\n`);
    const results = await f.run();
    // Both import the helper (b.ts ignores its value, but its key covers it too).
    assert.deepEqual(f.described, [["a.ts", "b.ts"], ["a.ts", "b.ts"]]);
    assert.equal(okTool(results[0]).name, "cached_two");
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});

Deno.test("a tampered entry is refused and described again", async () => {
  const f = await fixture();
  try {
    const cold = await f.run();
    for (const name of await f.entries()) {
      const path = join(f.cache, name);
      const entry = JSON.parse(await Deno.readTextFile(path));
      entry.result.tool.permissions = { read: true, write: true, run: true };
      await Deno.writeTextFile(path, JSON.stringify(entry));
    }
    const results = await f.run();
    assert.deepEqual(f.described, [["a.ts", "b.ts"], ["a.ts", "b.ts"]]);
    assert.deepEqual(results, cold);
    assert.deepEqual(okTool(results[0]).permissions, { read: ["."] });
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});

Deno.test("a foreign entry (another module's, validly signed) is refused", async () => {
  const f = await fixture();
  try {
    await f.run();
    const [keyA, keyB] = await moduleKeys(f.modules, ROOT);
    assert.ok(keyA && keyB && keyA !== keyB);
    const dir = f.cache;
    await Deno.copyFile(join(dir, `${keyA}.json`), join(dir, `${keyB}.json`));
    const results = await f.run();
    assert.deepEqual(f.described.at(-1), ["b.ts"]);
    assert.equal(okTool(results[1]).name, "cached_b");
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});

Deno.test("a group-writable entry or secret is not trusted", async () => {
  const f = await fixture();
  try {
    await f.run();
    const [keyA] = await moduleKeys(f.modules, ROOT);
    await Deno.chmod(join(f.cache, `${keyA}.json`), 0o666);
    await f.run();
    assert.deepEqual(f.described.at(-1), ["a.ts"]);
    await Deno.chmod(join(f.cache, "key"), 0o644);
    await f.run();
    assert.deepEqual(f.described.at(-1), ["a.ts", "b.ts"], "no cache with an exposed secret");
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});

Deno.test("entries and the secret are private to the user", async () => {
  const f = await fixture();
  try {
    await f.run();
    assert.equal((await Deno.stat(join(f.cache, "key"))).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(f.cache)).mode! & 0o777, 0o700);
    for (const name of await f.entries()) {
      assert.equal((await Deno.stat(join(f.cache, name))).mode! & 0o777, 0o600);
    }
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});

Deno.test("modules whose imports cannot all be known are never cached", async () => {
  const f = await fixture();
  try {
    const cases: Record<string, string> = {
      "computed.ts": `const m = "./_helper.ts";\nawait import(m);\n`,
      "remote.ts": `import "https://example.com/x.ts";\n`,
      "unmapped.ts": `import "not-in-the-import-map";\n`,
    };
    const modules = Object.keys(cases).map((name) => ({
      file: name,
      url: pathToFileURL(join(f.tools, name)).href,
    }));
    for (const [name, text] of Object.entries(cases)) {
      await Deno.writeTextFile(join(f.tools, name), `${text}${toolSource(name)}`);
    }
    assert.deepEqual(await moduleKeys(modules, ROOT), [null, null, null]);
    const [plain] = await moduleKeys(f.modules, ROOT);
    assert.match(plain ?? "", /^[0-9a-f]{64}$/);
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});

Deno.test(`${CACHE_DIR_ENV}=off turns the cache off; unset, it is under the user's cache directory`, () => {
  // An environment of its own: the suite's other modules run at the same time (--parallel).
  const envOf = (vars: Record<string, string>) => (name: string) =>
    vars[name] ?? (name === "HOME" ? Deno.env.get("HOME") : undefined);
  assert.equal(defaultDir(envOf({ [CACHE_DIR_ENV]: "off" })), null);
  assert.equal(defaultDir(envOf({ [CACHE_DIR_ENV]: "/elsewhere" })), "/elsewhere");
  const xdg = envOf({ XDG_CACHE_HOME: "/xdg-cache" });
  const expected = Deno.build.os === "linux" ? "/xdg-cache/magi-tools/describe" : defaultDir(xdg);
  assert.equal(defaultDir(xdg), expected);
  assert.ok(!defaultDir(xdg)?.startsWith(Deno.cwd()), "never in the working directory");
  assert.equal(defaultDir(), defaultDir((name) => Deno.env.get(name)), "the process's by default");
});

Deno.test("a cached inline description is used only when the module's source declares inline", async () => {
  const f = await fixture();
  try {
    await f.run();
    assert.equal(f.described.length, 1);
    // Rewrite a's entry as inline and sign it with the cache's own secret (a stolen key).
    const [keyA] = await moduleKeys(f.modules, ROOT);
    const path = join(f.cache, `${keyA}.json`);
    const entry = JSON.parse(await Deno.readTextFile(path));
    entry.result.tool.isolation = "inline";
    const secret = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(await Deno.readTextFile(join(f.cache, "key"))),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const signed = new TextEncoder().encode(`${entry.key}\n${JSON.stringify(entry.result)}`);
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", secret, signed));
    entry.mac = [...mac].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    await Deno.writeTextFile(path, JSON.stringify(entry), { mode: 0o600 });
    const again = await f.run();
    assert.deepEqual(f.described, [["a.ts", "b.ts"], ["a.ts"]], "a is described again");
    assert.equal(okTool(again[0]).isolation, "process", "the child's answer, not the forged one");
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});

Deno.test("loadToolDirs with a warm cache starts no describe child and keeps isolation", async () => {
  const f = await fixture();
  try {
    const options = (denoPath?: string) => ({
      describe: { cwd: ROOT, ...(denoPath === undefined ? {} : { denoPath }) },
      describeCache: { dir: f.cache },
    });
    const cold = await loadToolDirs([f.tools], options());
    const warm = await loadToolDirs([f.tools], options(join(f.base, "no-such-deno")));
    assert.deepEqual(warm.map((t) => t.tool.name), ["cached_one", "cached_b"]);
    assert.deepEqual(warm.map((t) => t.tool.name), cold.map((t) => t.tool.name));
    // Still process tools: the cached description decides nothing about isolation.
    for (const loaded of warm) assert.equal(loaded.tool.isolation, "process");
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});

Deno.test("without write permission the cache is skipped and the modules still described", async () => {
  const f = await fixture();
  try {
    const script = join(f.base, "no_write.ts");
    const cacheUrl = new URL("../../src/toolset/describe_cache.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      [
        `import { describeModulesCached } from ${JSON.stringify(cacheUrl)};`,
        `const modules = ${JSON.stringify(f.modules)};`,
        `const results = await describeModulesCached(modules, { cwd: ${JSON.stringify(ROOT)} }, {`,
        `  dir: ${JSON.stringify(f.cache)},`,
        `});`,
        `console.log(JSON.stringify(results.map((r) => r.ok && r.tool.name)));`,
      ].join("\n"),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--config", join(ROOT, "deno.json"), "--allow-read", "--allow-run", script],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    assert.equal(new TextDecoder().decode(out.stdout).trim(), `["cached_one","cached_b"]`);
    await assert.rejects(Deno.stat(f.cache), Deno.errors.NotFound);
  } finally {
    await Deno.remove(f.base, { recursive: true });
  }
});
