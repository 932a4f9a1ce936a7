/** `init`: a new tools project whose own tests pass as generated; nothing is overwritten. */
import assert from "node:assert/strict";
import { currentLibrary, projectFiles } from "../../../src/cli/commands/init.ts";
import { parseLoopArgs } from "../../../src/cli/args/loop.ts";
import { ROOT, runCli } from "../../e2e/_cli.ts";

const FILES = ["deno.json", "magi-tools.jsonc", "tools/greet.ts", "tests/greet_test.ts"];

Deno.test("init writes a project whose tests pass as generated", async () => {
  const parent = await Deno.makeTempDir({ prefix: "magi-tools-init-" });
  try {
    const dir = `${parent}/new project`;
    const result = await runCli(["init", dir], { raw: true });
    assert.equal(result.code, 0, result.stderr);
    for (const file of FILES) {
      assert.ok((await Deno.stat(`${dir}/${file}`)).isFile, file);
      assert.ok(result.stdout.includes(`  ${file}\n`), result.stdout);
    }
    const config = JSON.parse(await Deno.readTextFile(`${dir}/deno.json`));
    assert.equal(config.imports["@magi/tools"], new URL("mod.ts", `file://${ROOT}`).href);
    const commands = ["run", "call", "tools", "inspect", "mcp", "batch", "report"];
    for (const task of ["start", ...commands, "test"]) {
      assert.equal(typeof config.tasks[task], "string", task);
      assert.doesNotMatch(config.tasks[task], /(^| )(-A|--allow-all)( |$)/, task);
    }
    // The config's comment no longer sends the reader to "a magi-tools with MCP sources".
    const jsonc = await Deno.readTextFile(`${dir}/magi-tools.jsonc`);
    assert.doesNotMatch(jsonc, /needs a magi-tools with MCP sources/);
    assert.match(jsonc, /tools --task-flags/);
    // `start` is the whole CLI, as in this repository; each command's task is `start COMMAND`.
    assert.match(config.tasks.start, / @magi\/tools\/cli$/);
    for (const command of commands) {
      assert.equal(config.tasks[command], `${config.tasks.start} ${command}`, command);
    }
    // The generated project's own test task, run exactly as its author would.
    const test = await new Deno.Command(Deno.execPath(), {
      args: ["task", "test"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(test.stdout) + new TextDecoder().decode(test.stderr);
    assert.equal(test.code, 0, out);
    assert.match(out, /ok \| 2 passed \| 0 failed/);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("init refuses to overwrite: exit 2 naming the files, nothing written", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-init-" });
  try {
    await Deno.writeTextFile(`${dir}/deno.json`, "{}\n");
    await Deno.mkdir(`${dir}/tools`);
    await Deno.writeTextFile(`${dir}/tools/greet.ts`, "// mine\n");
    const result = await runCli(["init", dir], { raw: true });
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.match(
      result.stderr,
      new RegExp(`Init would overwrite existing files: ${dir}/deno.json, ${dir}/tools/greet.ts`),
    );
    assert.equal(await Deno.readTextFile(`${dir}/deno.json`), "{}\n");
    assert.equal(await Deno.readTextFile(`${dir}/tools/greet.ts`), "// mine\n");
    await assert.rejects(Deno.stat(`${dir}/magi-tools.jsonc`), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(`${dir}/tests`), Deno.errors.NotFound);

    await Deno.writeTextFile(`${dir}/file`, "x");
    const notDir = await runCli(["init", `${dir}/file`], { raw: true });
    assert.equal(notDir.code, 2);
    assert.match(notDir.stderr, /Init target is not a directory: .*\/file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("currentLibrary() points at this checkout, JSR or npm by where it runs", () => {
  const local = currentLibrary("file:///repo/src/cli/commands/init.ts", "deno");
  assert.deepEqual(local, { library: "file:///repo/mod.ts", cli: "file:///repo/cli.ts" });
  const jsr = currentLibrary("https://jsr.io/@magi/tools/0.1.0/src/cli/commands/init.ts", "deno");
  assert.match(jsr.library, /^jsr:@magi\/tools@\^\d+\.\d+\.\d+$/);
  assert.equal(jsr.cli, `${jsr.library}/cli`);
  const npm = currentLibrary("file:///x/node_modules/@magi/tools/cli.js", "node");
  assert.match(npm.library, /^npm:@magi\/tools@\^/);
  const files = projectFiles(jsr).map((f) => f.path);
  assert.deepEqual(files, FILES);
});

Deno.test("parseLoopArgs() takes init's optional DIR", () => {
  assert.deepEqual(parseLoopArgs("init", []), { command: "init", dir: "." });
  assert.deepEqual(parseLoopArgs("init", ["x"]), { command: "init", dir: "x" });
  assert.throws(() => parseLoopArgs("init", ["x", "y"]), /Unexpected argument: y/);
});
