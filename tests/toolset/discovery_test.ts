import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolLoadError } from "../../src/errors/mod.ts";
import { isToolModuleName, loadToolDirs, typeScriptOnNode } from "../../src/toolset/discovery.ts";

const FIXTURES = "tests/toolset/fixtures";
const fixture = (name: string) => join(FIXTURES, name);

async function loadError(dirs: string[]): Promise<ToolLoadError> {
  const error = await loadToolDirs(dirs).then(
    () => assert.fail("expected a ToolLoadError"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ToolLoadError, String(error));
  return error;
}

Deno.test("loadToolDirs() loads every tool module in name order, skipping helpers, tests and declarations", async () => {
  const loaded = await loadToolDirs([fixture("ok")]);
  assert.deepEqual(loaded.map((entry) => entry.tool.name), ["first", "second"]);
  assert.deepEqual(loaded.map((entry) => entry.file), [
    "tests/toolset/fixtures/ok/a_first.mjs",
    "tests/toolset/fixtures/ok/b_second.ts",
  ]);
  assert.match(loaded[0]!.url, /^file:\/\/\/.*\/tests\/toolset\/fixtures\/ok\/a_first\.mjs$/);
});

Deno.test("loadToolDirs() of no directories is empty", async () => {
  assert.deepEqual(await loadToolDirs([]), []);
});

const names: [string, boolean][] = [
  ["tool.ts", true],
  ["tool.mts", true],
  ["tool.js", true],
  ["tool.mjs", true],
  ["tool.tsx", false],
  ["tool.json", false],
  ["_helper.ts", false],
  [".hidden.ts", false],
  ["tool_test.ts", false],
  ["tool_test.mjs", false],
  ["types.d.ts", false],
  ["test.ts", true],
];
Deno.test("isToolModuleName() follows the naming rules", () => {
  for (const [name, expected] of names) assert.equal(isToolModuleName(name), expected, name);
});

Deno.test("loadToolDirs() rejects a missing directory, naming it", async () => {
  const error = await loadError([fixture("missing")]);
  assert.equal(error.file, "tests/toolset/fixtures/missing");
  assert.equal(
    error.message,
    "Tool directory cannot be read: tests/toolset/fixtures/missing: directory not found",
  );
});

Deno.test("loadToolDirs() rejects a module without a default export", async () => {
  const error = await loadError([fixture("no_default")]);
  assert.equal(
    error.message,
    "Tool module failed to load: tests/toolset/fixtures/no_default/tool.ts: no default export: a tool module must `export default defineTool({ ... })`",
  );
  assert.equal(error.file, "tests/toolset/fixtures/no_default/tool.ts");
  assert.match(error.reason, /^no default export: .*export default defineTool/);
});

Deno.test("loadToolDirs() rejects a default export that is not a defineTool() result", async () => {
  const error = await loadError([fixture("not_tool")]);
  assert.equal(
    error.message,
    "Tool module failed to load: tests/toolset/fixtures/not_tool/tool.ts: default export is not a defineTool() result: use `export default defineTool({ ... })`",
  );
});

Deno.test("loadToolDirs() rejects a module that throws while loading, with its message", async () => {
  const error = await loadError([fixture("throws")]);
  assert.equal(error.file, "tests/toolset/fixtures/throws/tool.ts");
  assert.equal(error.reason, "Error: Fixture failed while loading");
});

Deno.test("loadToolDirs() rejects a module with a syntax error", async () => {
  // Written at test time so the repository's fmt/lint/check stay clean.
  const dir = await mkdtemp(join(tmpdir(), "magi-discovery-"));
  try {
    await writeFile(join(dir, "broken.ts"), "export default defineTool({ name: \n");
    const error = await loadError([dir]);
    assert.equal(error.file, join(dir, "broken.ts"));
    assert.match(error.message, /^Tool module failed to load: .*broken\.ts: .*SyntaxError: /);
    // Then only where: the location (as the module was named) and the offending line.
    const [, at, ...frame] = error.message.split("\n");
    assert.match(at!, new RegExp(`^  at ${join(dir, "broken.ts").replaceAll(".", "\\.")}:1:\\d+$`));
    assert.ok(frame.length >= 1 && frame.length <= 3, error.message);
    assert.match(frame[0]!, /^ {2}1 \| export default defineTool\(\{ name: $/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

Deno.test("loadToolDirs() rejects a tool name used by two files, naming both", async () => {
  const error = await loadError([fixture("duplicate")]);
  assert.equal(
    error.message,
    "Duplicate tool name: twin in tests/toolset/fixtures/duplicate/a.ts and tests/toolset/fixtures/duplicate/b.ts; rename one of them",
  );
});

Deno.test("loadToolDirs() rejects a tool name used in two directories", async () => {
  const error = await loadError([fixture("ok"), fixture("dir_b")]);
  assert.equal(error.file, "tests/toolset/fixtures/dir_b/second_again.ts");
  assert.match(
    error.reason,
    /tool name second is already defined in tests\/toolset\/fixtures\/ok\/b_second\.ts$/,
  );
});

Deno.test("loadToolDirs() imports modules concurrently but reports the first failure in name order", async () => {
  // Written at test time so the repository's fmt/lint/check stay clean.
  const dir = await mkdtemp(join(tmpdir(), "magi-discovery-"));
  try {
    await writeFile(join(dir, "a_missing_default.ts"), "export const x = 1;\n");
    await writeFile(join(dir, "b_throws.ts"), 'throw new Error("second");\n');
    await writeFile(join(dir, "c_broken.ts"), "export default defineTool({ name: \n");
    const error = await loadError([dir]);
    assert.equal(error.file, join(dir, "a_missing_default.ts"));
    assert.match(error.reason, /^no default export/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

Deno.test("typeScriptOnNode() tells Node.js users a .ts tool module needs .js or .mjs", () => {
  for (const file of ["tools/a.ts", "tools/a.mts"]) {
    const reason = typeScriptOnNode(file, "node");
    assert.match(reason ?? "", /Node\.js loads tool modules as JavaScript: .*\.js or \.mjs/);
  }
  assert.equal(typeScriptOnNode("tools/a.mjs", "node"), null);
  assert.equal(typeScriptOnNode("tools/a.js", "node"), null);
  assert.equal(typeScriptOnNode("tools/a.ts", "deno"), null);
});
