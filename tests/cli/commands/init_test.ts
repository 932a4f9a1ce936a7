/** `init`: a new tools project whose own tests pass as generated; nothing is overwritten. */
import assert from "node:assert/strict";
import { relative } from "node:path";
import {
  localLibrary,
  nodeProjectFiles,
  projectDenoJson,
  projectFiles,
  registryLibrary,
} from "../../../src/cli/commands/init.ts";
import { parseAuthorArgs } from "../../../src/cli/args/author_commands.ts";
import { ROOT, runCli } from "../../e2e/_cli.ts";

const FILES = ["deno.json", "magi-tools.jsonc", "tools/greet.ts", "tests/greet_test.ts"];

/** This checkout as `init --from` writes it for a project in `dir`. */
function relativeRoot(dir: string): string {
  const path = relative(dir, ROOT);
  return path.startsWith(".") ? path : `./${path}`;
}

Deno.test("init writes a project whose tests pass as generated", async () => {
  const parent = await Deno.makeTempDir({ prefix: "magi-tools-init-" });
  try {
    const dir = `${parent}/new project`;
    const result = await runCli(["init", dir, "--from", ROOT], { raw: true });
    assert.equal(result.code, 0, result.stderr);
    for (const file of FILES) {
      assert.ok((await Deno.stat(`${dir}/${file}`)).isFile, file);
      assert.ok(result.stdout.includes(`  ${file}\n`), result.stdout);
    }
    const config = JSON.parse(await Deno.readTextFile(`${dir}/deno.json`));
    // --from: the checkout, relative to the project (never an absolute path into it).
    assert.equal(config.imports["@magi/tools"], `${relativeRoot(dir)}/mod.ts`);
    assert.equal(config.imports["@magi/tools/cli"], `${relativeRoot(dir)}/cli.ts`);
    assert.doesNotMatch(await Deno.readTextFile(`${dir}/deno.json`), /file:|"\/(work|tmp|home)/);
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

Deno.test("registryLibrary() is npm: of this version, jsr: when loaded from JSR", async () => {
  const version = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`)).version;
  const npm = registryLibrary("file:///x/npm/registry.npmjs.org/@magi/tools/0.1.0/src/cli/a.ts");
  assert.deepEqual(npm, {
    library: `npm:@magi/tools@^${version}`,
    cli: `npm:@magi/tools@^${version}/cli`,
  });
  const jsr = registryLibrary("https://jsr.io/@magi/tools/0.1.0/src/cli/commands/init.ts");
  assert.equal(jsr.library, `jsr:@magi/tools@^${version}`);
  assert.equal(jsr.cli, `${jsr.library}/cli`);
  assert.deepEqual(projectFiles(jsr).map((f) => f.path), FILES);
  // Only an npm: project exempts magi-tools from Deno's minimum dependency age.
  const deno = (lib: typeof npm) =>
    JSON.parse(projectFiles(lib).find((f) => f.path === "deno.json")!.text);
  assert.deepEqual(deno(npm).minimumDependencyAge, { exclude: ["npm:@magi/tools"] });
  assert.equal(deno(jsr).minimumDependencyAge, undefined);
});

Deno.test("localLibrary() is relative to the project", () => {
  assert.deepEqual(localLibrary("/w/magi-tools", "/w/p"), {
    library: "../magi-tools/mod.ts",
    cli: "../magi-tools/cli.ts",
  });
  assert.equal(localLibrary("/w/p/vendor/magi", "/w/p").library, "./vendor/magi/mod.ts");
});

Deno.test("projectDenoJson() maps the ./protocol and ./records entries beside the library", () => {
  const imports = (lib: { library: string; cli: string }) =>
    (projectDenoJson(lib) as { imports: Record<string, string> }).imports;
  const local = imports(localLibrary("/w/magi-tools", "/w/p"));
  assert.equal(local["@magi/tools/protocol"], "../magi-tools/protocol.ts");
  assert.equal(local["@magi/tools/records"], "../magi-tools/records.ts");
  const npm = imports({ library: "npm:@magi/tools@^1.2.3", cli: "npm:@magi/tools@^1.2.3/cli" });
  assert.equal(npm["@magi/tools/protocol"], "npm:@magi/tools@^1.2.3/protocol");
  assert.equal(npm["@magi/tools/records"], "npm:@magi/tools@^1.2.3/records");
});

Deno.test("init --from names a folder that is no checkout: exit 2, nothing written", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-init-" });
  try {
    const result = await runCli(["init", `${dir}/p`, "--from", dir], { raw: true });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /init --from .*: not a magi-tools checkout \(no mod\.ts there\)/);
    await assert.rejects(Deno.stat(`${dir}/p`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("nodeProjectFiles(): .mjs tool and node:test test, no deno.json", () => {
  const files = nodeProjectFiles();
  assert.deepEqual(files.map((f) => f.path), [
    "magi-tools.jsonc",
    "tools/greet.mjs",
    "tests/greet.test.mjs",
  ]);
  assert.match(files[0]!.text, /npx magi-tools trust/);
  assert.doesNotMatch(files[1]!.text, /: string|as const/);
});

Deno.test("parseAuthorArgs() takes init's optional DIR", () => {
  assert.deepEqual(parseAuthorArgs("init", []), { command: "init", dir: ".", from: undefined });
  assert.deepEqual(parseAuthorArgs("init", ["x"]), { command: "init", dir: "x", from: undefined });
  assert.deepEqual(parseAuthorArgs("init", ["x", "--from", "../m"]), {
    command: "init",
    dir: "x",
    from: "../m",
  });
  assert.throws(() => parseAuthorArgs("init", ["--from"]), /--from/);
  assert.throws(() => parseAuthorArgs("init", ["x", "y"]), /Unexpected argument: y/);
});

Deno.test("deno task init downloads only the core's npm packages, not the MCP and OpenAPI stacks", async () => {
  const denoDir = await Deno.makeTempDir({ prefix: "magi-tools-init-deno-dir-" });
  const parent = await Deno.makeTempDir({ prefix: "magi-tools-init-" });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "init", `${parent}/p`],
      cwd: ROOT,
      env: { NO_COLOR: "1", DENO_DIR: denoDir },
      stdin: "null",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const downloaded: string[] = [];
    for await (const entry of Deno.readDir(`${denoDir}/npm/registry.npmjs.org`)) {
      downloaded.push(entry.name);
    }
    // `deno task start init` (the full CLI's lockfile) fetched 99 packages.
    assert.deepEqual(downloaded.sort(), ["jsonc-parser", "zod"]);
    const config = JSON.parse(await Deno.readTextFile(`${parent}/p/deno.json`));
    assert.equal(config.imports["@magi/tools"], `${relativeRoot(`${parent}/p`)}/mod.ts`);
  } finally {
    await Deno.remove(denoDir, { recursive: true });
    await Deno.remove(parent, { recursive: true });
  }
});
