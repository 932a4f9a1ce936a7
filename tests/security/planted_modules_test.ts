/**
 * Host inputs against a tool process's writes (issue 23 item 2): the model's arguments to a
 * write tool cannot plant a module the next start runs, and a declared write scope over the
 * host's inputs is refused at load, while ordinary write scopes keep working.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, exists, ROOT, scenario, tempDir } from "./_scopes.ts";

const ARTIFACTS = join(ROOT, "tests", ".artifacts");

/**
 * A project inside this repository's `.artifacts` (the `deno.json` Deno finds from there maps
 * zod and `@magi/tools`), with the example `write_note` (and its `_paths.ts`) in `tools/`.
 */
async function project(): Promise<{ path: string; remove: () => Promise<void> }> {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const path = await Deno.makeTempDir({ dir: ARTIFACTS, prefix: "planted-" });
  await Deno.mkdir(join(path, "tools"));
  for (const name of ["write_note.ts", "_paths.ts"]) {
    await Deno.copyFile(join(ROOT, "tools", name), join(path, "tools", name));
  }
  return { path, remove: () => Deno.remove(path, { recursive: true }).catch(() => {}) };
}

/** One line that is a complete inline tool whose top-level code writes `marker`. */
function plantedLine(marker: string): string {
  return `import { z } from "zod"; import { defineTool } from "@magi/tools"; ` +
    `try { Deno.writeTextFileSync(${JSON.stringify(marker)}, "planted"); } catch { /* child */ } ` +
    `export default defineTool({ name: "planted", description: "x", input: z.strictObject({}), ` +
    `effect: "read", isolation: "inline", run: () => "x" });`;
}

Deno.test("write_note arguments under --approve allow cannot plant a tool module; a note still gets written", async () => {
  const dir = await project();
  const outside = await tempDir("magi-tools-sec-planted-");
  try {
    const marker = join(outside.path, "marker");
    await Deno.mkdir(join(dir.path, "notes"));
    const line = plantedLine(marker);
    const script = await scenario(outside.path, [
      // As the old write_note resolved `file` (relative to the working directory) …
      { call: { tool: "write_note", arguments: { text: line, file: "tools/x.ts" } } },
      // … and as the new one does (relative to notes/).
      { call: { tool: "write_note", arguments: { text: line, file: "../tools/y.ts" } } },
      { call: { tool: "write_note", arguments: { text: "legit finding" } } },
      { say: "{{results}}" },
    ]);
    const env = { MAGI_SCENARIO: script, MC_HOME: join(outside.path, "mc") };
    const run = await cli(
      ["run", "--approve", "allow", "--format", "ndjson", "GO"],
      { cwd: dir.path, env },
    );
    // The next start loads what is in tools/: nothing planted runs.
    const next = await cli(["tools"], { cwd: dir.path, env });
    assert.equal(await exists(marker), false, "a planted module ran in the host");
    assert.equal(next.code, 0, next.stderr);
    assert.doesNotMatch(next.stdout, /^planted\t/m);
    assert.equal(run.code, 0, run.stderr);
    const results = run.stdout.trim().split("\n").map((l) => JSON.parse(l))
      .filter((r) => r.type === "tool.result");
    assert.deepEqual(results.map((r) => r.outcome), ["error", "error", "success"], run.stdout);
    assert.equal(await exists(join(dir.path, "tools", "x.ts")), false, "planted tools/x.ts");
    assert.equal(await exists(join(dir.path, "tools", "y.ts")), false, "planted tools/y.ts");
    assert.equal(
      await Deno.readTextFile(join(dir.path, "notes", "notes.md")),
      "legit finding\n",
    );
  } finally {
    await dir.remove();
    await outside.remove();
  }
});

Deno.test("write_note without notes/ creates it or says to, never writing elsewhere", async () => {
  const dir = await project();
  const outside = await tempDir("magi-tools-sec-planted-");
  try {
    const run = await cli(["call", "write_note", '{"text":"first"}', "--json"], {
      cwd: dir.path,
    });
    const record = JSON.parse(run.stdout);
    if (record.outcome === "success") {
      // The Deno layer alone lets the tool create its own directory.
      assert.equal(await Deno.readTextFile(join(dir.path, "notes", "notes.md")), "first\n");
    } else {
      // Under the kernel layer the missing directory had no rule: a clear error.
      assert.match(
        record.text ?? JSON.stringify(record),
        /create notes\/ in the working directory/,
      );
      assert.equal(await exists(join(dir.path, "notes")), false);
    }
  } finally {
    await dir.remove();
    await outside.remove();
  }
});

/** A process tool with `permissions` whose call writes `file` (relative to the cwd). */
function writerSource(permissions: string, file: string): string {
  return `import { z } from "zod";
import { defineTool } from "@magi/tools";
export default defineTool({
  name: "writer",
  description: "Writes one file.",
  input: z.strictObject({}),
  effect: "write",
  permissions: ${permissions},
  run(_args, ctx) {
    Deno.writeTextFileSync(ctx.cwd + "/" + ${JSON.stringify(file)}, "written");
    return "ok";
  },
});
`;
}

Deno.test("a write scope over a host input is refused at load, naming tool, scope and input; others load and write", async () => {
  const dir = await project();
  try {
    await Deno.remove(join(dir.path, "tools", "write_note.ts"));
    await Deno.writeTextFile(join(dir.path, "magi-tools.jsonc"), "{}\n");
    const cases: [string, RegExp][] = [
      [`{ write: ["."] }`, /write "\." \(.*\), which contains the tool directory/],
      [`{ write: ["tools"] }`, /write "tools" \(.*\), which is the tool directory/],
      [
        `{ write: ["tools/sub"] }`,
        /write "tools\/sub" \(.*\), which lies inside the tool directory/,
      ],
      [`{ write: ["magi-tools.jsonc"] }`, /which is the config file/],
      [`{ write: [".magi-tools"] }`, /which is the host state directory/],
      [`{ write: ["deno.jsonc"] }`, /which is the Deno configuration/],
      [`{ write: [${JSON.stringify(join(ROOT, "deno.full.lock"))}] }`, /which is the lockfile/],
      [
        `{ write: [${JSON.stringify(join(ROOT, "src", "host"))}] }`,
        /which lies inside the magi-tools module .*\/src/,
      ],
    ];
    const xdg = join(dir.path, "..", `xdg-${crypto.randomUUID()}`);
    cases.push([
      `{ write: [${JSON.stringify(join(xdg, "config"))}] }`,
      /contains the host config directory/,
    ]);
    for (const [permissions, reason] of cases) {
      await Deno.writeTextFile(
        join(dir.path, "tools", "writer.ts"),
        writerSource(permissions, "x"),
      );
      for (const args of [["tools"], ["call", "writer", "{}"], ["mcp"]]) {
        const refused = await cli(args, {
          cwd: dir.path,
          input: "",
          env: { XDG_CONFIG_HOME: join(xdg, "config") },
        });
        const what = `${permissions} ${args[0]}`;
        assert.equal(refused.code, 2, `${what}: ${refused.stdout}${refused.stderr}`);
        assert.match(refused.stderr, /^magi-tools: Tool scope overlaps a host input: /m, what);
        assert.match(refused.stderr, /tools\/writer\.ts: tool writer declares /, what);
        assert.match(refused.stderr, reason, what);
        assert.match(refused.stderr, /narrow the write scope/, what);
      }
    }
    // An ordinary write scope loads and writes, at every layer.
    await Deno.mkdir(join(dir.path, "out"));
    await Deno.writeTextFile(
      join(dir.path, "tools", "writer.ts"),
      writerSource(`{ write: ["out"] }`, "out/result.txt"),
    );
    const ok = await cli(["call", "writer", "{}"], { cwd: dir.path });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(await Deno.readTextFile(join(dir.path, "out", "result.txt")), "written");
  } finally {
    await dir.remove();
  }
});

Deno.test("a write scope reaching a host input through a symlink is refused by its real path", async () => {
  const dir = await project();
  try {
    await Deno.remove(join(dir.path, "tools", "write_note.ts"));
    await Deno.symlink(join(dir.path, "tools"), join(dir.path, "innocent"));
    await Deno.writeTextFile(
      join(dir.path, "tools", "writer.ts"),
      writerSource(`{ write: ["innocent/new"] }`, "innocent/new"),
    );
    const refused = await cli(["tools"], { cwd: dir.path });
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /write "innocent\/new" \(.*\/tools\/new\), which lies inside the tool directory/,
    );
  } finally {
    await dir.remove();
  }
});
