import assert from "node:assert/strict";
import { join } from "node:path";
import {
  codeClosure,
  type DenoInfo,
  entryFiles,
  FULL_ENTRIES,
  graphPackages,
  lockPackages,
  lockProblems,
  LOCKS,
  pruneLock,
  ROOT,
  specPackages,
  workspaceDependencies,
} from "../../scripts/locks.ts";

for (const spec of LOCKS) {
  Deno.test(`${spec.path} holds exactly the npm packages of its graph`, async () => {
    const lock = lockPackages(await Deno.readTextFile(join(ROOT, spec.path)));
    const graph = await specPackages(spec);
    assert.deepEqual(lockProblems(lock, graph), [], `${spec.path} (deno run -A scripts/locks.ts)`);
    assert.ok(lock.size > 0);
  });
}

Deno.test("deno.lock holds only zod and jsonc-parser; deno.full.lock adds the MCP SDK", async () => {
  const names = async (path: string) =>
    [...lockPackages(await Deno.readTextFile(join(ROOT, path)))].map((key) =>
      key.slice(0, key.indexOf("@", 1))
    );
  assert.deepEqual((await names("deno.lock")).sort(), ["jsonc-parser", "zod"]);
  const full = await names("deno.full.lock");
  for (const name of ["@modelcontextprotocol/sdk", "js-yaml", "ajv", "zod"]) {
    assert.ok(full.includes(name), `deno.full.lock lacks ${name}`);
  }
});

Deno.test("deno.full.lock, frozen, resolves the full CLI's graph with the root config", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-full-lock-" });
  try {
    const all = join(dir, "all.ts");
    const files = entryFiles(ROOT, FULL_ENTRIES, true).filter((file) =>
      /\/(cli|mod)\.ts$/.test(file)
    );
    await Deno.writeTextFile(all, files.map((file) => `import "${file}";\n`).join(""));
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "info",
        "--json",
        "--config",
        join(ROOT, "deno.json"),
        `--lock=${join(ROOT, "deno.full.lock")}`,
        "--frozen",
        all,
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the root config freezes deno.lock and maps only the core's packages", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  assert.deepEqual(config.lock, { path: "./deno.lock", frozen: true });
  // The package's own entries map to this checkout; the npm packages are the core's only.
  assert.deepEqual(Object.keys(config.imports).sort(), [
    "@magi/tools",
    "@magi/tools/protocol",
    "@magi/tools/records",
    "jsonc-parser",
    "zod",
  ]);
  for (const [name, target] of Object.entries(config.imports)) {
    if (name.startsWith("@magi/tools")) assert.match(String(target), /^\.\/[a-z]+\.ts$/, name);
  }
  // The tasks that need more say which lockfile or config they use.
  assert.match(
    config.tasks.start,
    /^(MAGI_TOOLS_INVOCATION='deno task start' )?deno run --lock=deno\.full\.lock /,
  );
  for (const task of ["bench", "build:npm"]) {
    assert.match(config.tasks[task], /--config dev\/deno\.json/, task);
  }
  assert.match(config.tasks.test, /deno test --config dev\/deno\.json /);
});

Deno.test("dev/deno.json maps the root's imports alike, and the SDK at src/mcp/_sdk.ts's version", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const dev = JSON.parse(await Deno.readTextFile(join(ROOT, "dev", "deno.json")));
  assert.deepEqual(dev.lock, { path: "./deno.lock", frozen: true });
  for (const [name, target] of Object.entries(config.imports as Record<string, string>)) {
    const devTarget = dev.imports[name] as string;
    assert.equal(devTarget.startsWith("../") ? devTarget.slice(1) : devTarget, target, name);
  }
  const sdk = await Deno.readTextFile(join(ROOT, "src", "mcp", "_sdk.ts"));
  const versions = new Set(
    [...sdk.matchAll(/"npm:@modelcontextprotocol\/sdk@([^/"]+)\//g)].map((match) => match[1]),
  );
  assert.deepEqual([...versions], [dev.imports["@modelcontextprotocol/sdk"].split("@").at(-1)]);
  // The compiler options are the same: tests check the code as the root config does.
  assert.deepEqual(dev.compilerOptions, config.compilerOptions);
});

Deno.test("codeClosure() follows code imports and literal dynamic ones, not type-only imports", () => {
  const info: DenoInfo = {
    modules: [
      {
        specifier: "file:///a.ts",
        dependencies: [
          { code: { specifier: "npm:zod@^4" } },
          { code: { specifier: "file:///b.ts" } },
          {}, // type-only: `import type`, `typeof import("…")`
        ],
      },
      {
        specifier: "file:///b.ts",
        dependencies: [{ code: { specifier: "npm:x@1/sub.js" }, npmPackage: "x@1.0.0" }],
      },
      { specifier: "file:///types_only.ts", dependencies: [{ code: { specifier: "npm:big@1" } }] },
      { specifier: "npm:/zod@4.6.7", kind: "npm", npmPackage: "zod@4.6.7" },
      { specifier: "npm:/x@1.0.0/sub.js", kind: "npm", npmPackage: "x@1.0.0" },
    ],
    redirects: { "npm:zod@^4": "npm:/zod@4.6.7", "npm:x@1/sub.js": "npm:/x@1.0.0/sub.js" },
    npmPackages: {
      "zod@4.6.7": {},
      "x@1.0.0": { dependencies: ["y@2.0.0"] },
      "y@2.0.0": {},
      "big@1.0.0": {},
    },
  };
  assert.deepEqual(
    [...codeClosure(info, ["file:///a.ts"])].sort(),
    ["x@1.0.0", "y@2.0.0", "zod@4.6.7"],
  );
  assert.deepEqual([...codeClosure(info, [], ["big@1.0.0"])], ["big@1.0.0"]);
});

Deno.test("lockProblems() names what a lockfile lacks and what it holds needlessly", () => {
  assert.deepEqual(lockProblems(new Set(["a@1", "b@2"]), new Set(["a@1", "b@2"])), []);
  assert.deepEqual(lockProblems(new Set(["a@1", "c@3"]), new Set(["a@1", "b@2"])), [
    "lacks b@2",
    "holds c@3 needlessly",
  ]);
});

Deno.test("pruneLock() keeps the kept packages and the specifiers resolving to them", () => {
  const pruned = pruneLock(
    {
      version: "5",
      specifiers: { "npm:zod@4": "4.6.7", "npm:@a/b@^1": "1.2.0_zod@4.6.7", "npm:c@1": "1.0.0" },
      npm: { "zod@4.6.7": {}, "@a/b@1.2.0_zod@4.6.7": {}, "c@1.0.0": {} },
      workspace: { dependencies: ["npm:c@1"] },
    },
    new Set(["zod@4.6.7", "@a/b@1.2.0_zod@4.6.7"]),
    ["npm:zod@4"],
  );
  assert.deepEqual(pruned, {
    version: "5",
    specifiers: { "npm:zod@4": "4.6.7", "npm:@a/b@^1": "1.2.0_zod@4.6.7" },
    npm: { "zod@4.6.7": {}, "@a/b@1.2.0_zod@4.6.7": {} },
    workspace: { dependencies: ["npm:zod@4"] },
  });
});

Deno.test("workspaceDependencies() spells the root's npm imports as Deno's lockfile does", () => {
  const specifiers = {
    "npm:zod@4": "4.6.7",
    "npm:jsonc-parser@3": "3.3.1",
    "npm:x@1.2.3": "1.2.3",
  };
  assert.deepEqual(
    workspaceDependencies(
      { "@magi/tools": "./mod.ts", zod: "npm:zod@^4", "jsonc-parser": "npm:jsonc-parser@^3" },
      specifiers,
    ),
    ["npm:jsonc-parser@3", "npm:zod@4"],
  );
  assert.deepEqual(workspaceDependencies({ x: "npm:x@1.2.3" }, specifiers), ["npm:x@1.2.3"]);
  assert.throws(() => workspaceDependencies({ q: "npm:q@^9" }, specifiers), /npm:q@\^9/);
});

Deno.test("a frozen lockfile that lacks a package the graph needs fails graphPackages()", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-stale-lock-" });
  try {
    await Deno.writeTextFile(
      join(dir, "deno.json"),
      JSON.stringify({
        imports: { zod: "npm:zod@^4" },
        lock: { path: "./deno.lock", frozen: true },
      }),
    );
    // deno.lock without zod: stale for a graph that imports it.
    const lock = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.lock")));
    for (const key of Object.keys(lock.specifiers)) {
      if (key.startsWith("npm:zod@")) delete lock.specifiers[key];
    }
    for (const key of Object.keys(lock.npm)) if (key.startsWith("zod@")) delete lock.npm[key];
    lock.workspace = { dependencies: [] };
    await Deno.writeTextFile(join(dir, "deno.lock"), JSON.stringify(lock));
    await Deno.writeTextFile(join(dir, "uses_zod.ts"), 'import { z } from "zod";\nz.string();\n');
    await assert.rejects(
      graphPackages([join(dir, "uses_zod.ts")], join(dir, "deno.json")),
      /deno info --config .*deno\.json failed:[\s\S]*lockfile is out of date/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
