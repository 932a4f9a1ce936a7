import assert from "node:assert/strict";
import { join } from "node:path";
import { installedPackages, withoutPeers } from "../../scripts/first_run.ts";
import { ROOT } from "../../scripts/locks.ts";

Deno.test("a first `deno task demo` with an empty Deno cache downloads only the demo graph's packages (scripts/first_run.ts)", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(ROOT, "scripts", "first_run.ts")],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  const lines = new TextDecoder().decode(output.stdout).trimEnd().split("\n");
  assert.equal(lines.length, 1, lines.join("\n"));
  const line = JSON.parse(lines[0]!);
  assert.deepEqual(Object.keys(line), ["installed", "graph", "seconds"]);
  assert.ok(line.installed.every((name: unknown) => typeof name === "string"));
  // The demo imports zod and jsonc-parser (no dependencies of their own) and nothing else.
  assert.deepEqual(line.graph.map((key: string) => key.slice(0, key.indexOf("@", 1))), [
    "jsonc-parser",
    "zod",
  ]);
  assert.deepEqual(line.installed, line.graph);
  assert.ok(typeof line.seconds === "number" && line.seconds > 0);
});

Deno.test("installedPackages() lists name@version of a Deno cache, scoped names included", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-deno-dir-" });
  try {
    const registry = join(dir, "npm", "registry.npmjs.org");
    for (const path of ["zod/4.6.7", "@scope/pkg/1.0.0", "@scope/pkg/1.1.0"]) {
      await Deno.mkdir(join(registry, path), { recursive: true });
    }
    await Deno.writeTextFile(join(registry, "zod", "registry.json"), "{}");
    assert.deepEqual(installedPackages(dir), ["@scope/pkg@1.0.0", "@scope/pkg@1.1.0", "zod@4.6.7"]);
    assert.deepEqual(installedPackages(join(dir, "missing")), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("withoutPeers() drops a lockfile key's peer suffix", () => {
  assert.equal(
    withoutPeers("@modelcontextprotocol/sdk@1.32.2_zod@4.6.7"),
    "@modelcontextprotocol/sdk@1.32.2",
  );
  assert.equal(withoutPeers("zod@4.6.7"), "zod@4.6.7");
});
