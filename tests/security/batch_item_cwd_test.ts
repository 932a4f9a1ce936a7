/**
 * A batch item's `cwd` against the batch's `--cwd` (issue 31 item 2): an item cannot run outside
 * `--cwd` (an absolute path, `..`, a symlink that leads out), and every directory an item runs
 * in gets the host-input and describe-cache checks of `--cwd` itself, while items inside `--cwd`
 * keep working with their relative scopes resolved against their own directory.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, exists, ROOT, scenario, tempDir } from "./_scopes.ts";

const TOOLS = join(ROOT, "tools");
const CACHE_TOOLS = join(ROOT, "tests", "security", "fixtures", "item_cwd_tools");

/** Write a batch input of `items` (one JSON line each) and return its path. */
async function input(dir: string, items: readonly Record<string, unknown>[]): Promise<string> {
  const path = join(dir, "input.jsonl");
  await Deno.writeTextFile(path, items.map((item) => `${JSON.stringify(item)}\n`).join(""));
  return path;
}

/** The item files an output folder holds (none when it was never created). */
async function itemFiles(out: string): Promise<string[]> {
  if (!(await exists(join(out, "items")))) return [];
  const names: string[] = [];
  for await (const entry of Deno.readDir(join(out, "items"))) names.push(entry.name);
  return names.sort();
}

Deno.test("batch refuses an item cwd outside --cwd (/, ../.., a symlink out) with exit 2 naming the item; nothing runs", async () => {
  const project = await tempDir("magi-tools-sec-itemcwd-");
  const outside = await tempDir("magi-tools-sec-itemcwd-out-");
  try {
    await Deno.mkdir(join(project.path, "a", "b"), { recursive: true });
    await Deno.symlink(outside.path, join(project.path, "link"));
    // Were the item to run in /, read_text's read ["."] would be the whole disk.
    const script = await scenario(outside.path, [
      { call: { tool: "read_text", arguments: { path: "etc/passwd" } } },
      { say: "{{results}}" },
    ]);
    const env = { MAGI_SCENARIO: script, MC_HOME: join(outside.path, "mc") };
    const cases = [
      { cwd: "/", resolved: "/" },
      { cwd: "../..", resolved: null },
      { cwd: "a/b/../../..", resolved: null },
      { cwd: "link", resolved: outside.path },
      { cwd: outside.path, resolved: outside.path },
    ];
    for (const [index, { cwd, resolved }] of cases.entries()) {
      const file = await input(outside.path, [
        { id: "fine", prompt: "GO" },
        { id: `escape-${index}`, prompt: "GO", cwd },
      ]);
      const out = join(outside.path, `out-${index}`);
      const run = await cli(
        ["batch", file, "--out", out, "--cwd", project.path, "--tools", TOOLS],
        { cwd: project.path, env },
      );
      assert.equal(run.code, 2, `cwd ${cwd}: ${run.stderr}`);
      assert.equal(run.stdout, "");
      assert.ok(run.stderr.includes(`${file}:2: item escape-${index}`), run.stderr);
      assert.ok(run.stderr.includes(`cwd ${JSON.stringify(cwd)}`), run.stderr);
      assert.match(run.stderr, /outside --cwd/);
      if (resolved !== null) assert.ok(run.stderr.includes(` is ${resolved},`), run.stderr);
      assert.ok(run.stderr.includes(project.path), run.stderr);
      // Refused while the input is checked: no output folder, no item (not even the fine one).
      assert.deepEqual(await itemFiles(out), []);
    }
  } finally {
    await project.remove();
    await outside.remove();
  }
});

Deno.test("batch refuses a tool scope that reaches the describe cache only from an item's cwd, naming item, tool and cache", async () => {
  const project = await tempDir("magi-tools-sec-itemcwd-");
  const outside = await tempDir("magi-tools-sec-itemcwd-out-");
  try {
    // The describe cache inside the project, under work/: cache_key's scopes `describe` are
    // project/describe from --cwd (harmless) but the cache itself from an item with cwd work.
    const cache = join(project.path, "work", "describe");
    await Deno.mkdir(join(project.path, "work"));
    await Deno.mkdir(join(project.path, "other"));
    const script = await scenario(outside.path, [
      { call: { tool: "cache_key", arguments: {} } },
      { say: "{{results}}" },
    ]);
    const env = {
      MAGI_SCENARIO: script,
      MC_HOME: join(outside.path, "mc"),
      MAGI_TOOLS_CACHE_DIR: cache,
    };
    const tools = await cli(["tools", "--tools", CACHE_TOOLS], { cwd: project.path, env });
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /^cache_key\t/m);
    assert.ok(await exists(join(cache, "key")), "the describe cache has its key");

    const file = await input(outside.path, [
      { id: "home", prompt: "GO" },
      { id: "in-work", prompt: "GO", cwd: "work" },
    ]);
    const out = join(outside.path, "out");
    const args = ["batch", file, "--out", out, "--cwd", project.path, "--tools", CACHE_TOOLS];
    const refused = await cli(args, { cwd: project.path, env });
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(refused.stdout, "");
    assert.ok(refused.stderr.includes(`item in-work (${file}:2)`), refused.stderr);
    assert.ok(refused.stderr.includes(join(project.path, "work")), refused.stderr);
    assert.match(refused.stderr, /cache_key/);
    assert.match(refused.stderr, /describe cache/);
    assert.ok(refused.stderr.includes(cache), refused.stderr);
    const key = (await Deno.readTextFile(join(cache, "key"))).trim();
    assert.ok(!refused.stderr.includes(key));
    // Refused before any item ran.
    assert.deepEqual(await itemFiles(out), []);

    // The same tools in --cwd and in another item directory run (no key there to read).
    const legit = await input(outside.path, [
      { id: "home", prompt: "GO" },
      { id: "in-other", prompt: "GO", cwd: "other" },
    ]);
    const ran = await cli(
      ["batch", legit, "--out", out, "--cwd", project.path, "--tools", CACHE_TOOLS],
      { cwd: project.path, env },
    );
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(await itemFiles(out), ["home.ndjson", "in-other.ndjson"]);
    for (const name of ["home", "in-other"]) {
      const records = await Deno.readTextFile(join(out, "items", `${name}.ndjson`));
      assert.match(records, /no key/);
      assert.ok(!records.includes(key), "the describe cache's key reached an item");
    }
  } finally {
    await project.remove();
    await outside.remove();
  }
});

Deno.test("batch runs an item cwd inside --cwd (relative or absolute) there: relative scopes resolve against it", async () => {
  const project = await tempDir("magi-tools-sec-itemcwd-");
  const outside = await tempDir("magi-tools-sec-itemcwd-out-");
  try {
    await Deno.mkdir(join(project.path, "repos", "billing"), { recursive: true });
    await Deno.writeTextFile(join(project.path, "top.txt"), "TOP-TEXT\n");
    await Deno.writeTextFile(join(project.path, "repos", "billing", "inner.txt"), "INNER-TEXT\n");
    // A symlink that stays inside --cwd is fine too.
    await Deno.symlink(join(project.path, "repos"), join(project.path, "r"));
    const script = await scenario(outside.path, [
      { call: { tool: "read_text", arguments: { path: "inner.txt" } } },
      { call: { tool: "read_text", arguments: { path: "top.txt" } } },
      { say: "{{results}}" },
    ]);
    const env = { MAGI_SCENARIO: script, MC_HOME: join(outside.path, "mc") };
    const file = await input(outside.path, [
      { id: "top", prompt: "GO" },
      { id: "billing", prompt: "GO", cwd: "repos/billing" },
      { id: "absolute", prompt: "GO", cwd: join(project.path, "repos", "billing") },
      { id: "via-link", prompt: "GO", cwd: "r/billing" },
    ]);
    const out = join(outside.path, "out");
    const run = await cli(
      ["batch", file, "--out", out, "--cwd", project.path, "--tools", TOOLS],
      { cwd: outside.path, env },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).completed, 4);
    const top = await Deno.readTextFile(join(out, "items", "top.ndjson"));
    assert.match(top, /TOP-TEXT/);
    assert.doesNotMatch(top, /INNER-TEXT/);
    for (const id of ["billing", "absolute", "via-link"]) {
      const records = await Deno.readTextFile(join(out, "items", `${id}.ndjson`));
      assert.match(records, /INNER-TEXT/, id);
      // top.txt is in --cwd but not in the item's directory: read_text's read ["."] is billing/.
      assert.doesNotMatch(records, /TOP-TEXT/, id);
    }
  } finally {
    await project.remove();
    await outside.remove();
  }
});

Deno.test("batch stops before an item whose directory was swapped for a symlink out while the batch ran", async () => {
  const project = await tempDir("magi-tools-sec-itemcwd-");
  const outside = await tempDir("magi-tools-sec-itemcwd-out-");
  try {
    await Deno.mkdir(join(project.path, "repos", "a"), { recursive: true });
    await Deno.mkdir(join(project.path, "repos", "b", "c"), { recursive: true });
    const script = join(outside.path, "scenario.json");
    await Deno.writeTextFile(
      script,
      JSON.stringify({
        turns: [
          {
            match: "SWAP",
            steps: [
              { call: { tool: "swap_dir", arguments: { target: "../b/c", to: outside.path } } },
              { say: "{{results}}" },
            ],
          },
          { match: "GO", steps: [{ say: "ran" }] },
        ],
      }),
    );
    const env = { MAGI_SCENARIO: script, MC_HOME: join(outside.path, "mc") };
    const file = await input(outside.path, [
      { id: "first", prompt: "SWAP", cwd: "repos/a" },
      { id: "second", prompt: "GO", cwd: "repos/b/c" },
    ]);
    const out = join(outside.path, "out");
    const tools = join(ROOT, "tests", "security", "fixtures", "swap_tools");
    const run = await cli(
      ["batch", file, "--out", out, "--cwd", project.path, "--tools", tools, "--approve", "allow"],
      { cwd: project.path, env },
    );
    // The first item swapped repos/b/c for a symlink to a directory outside --cwd.
    const first = await Deno.readTextFile(join(out, "items", "first.ndjson"));
    assert.match(first, /swapped/, first);
    assert.equal(run.code, 1, run.stderr);
    assert.ok(
      run.stderr.includes(
        `Batch stopped: the working directory ${join(project.path, "repos", "b", "c")} of item ` +
          `second changed since it was checked: it now resolves to ${outside.path}`,
      ),
      run.stderr,
    );
    assert.deepEqual(await itemFiles(out), ["first.ndjson"]);
    assert.equal(JSON.parse(run.stdout).not_run, 1);
  } finally {
    await project.remove();
    await outside.remove();
  }
});
