import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import writeNote from "../../tools/write_note.ts";
import { runTool } from "./_context.ts";

async function withDir(fn: (cwd: string, root: string) => Promise<void>) {
  const root = await realpath(await mkdtemp(join(tmpdir(), "magi-write-note-")));
  const cwd = join(root, "work");
  await mkdir(cwd);
  try {
    await fn(cwd, root);
  } finally {
    await rm(root, { recursive: true });
  }
}

Deno.test("write_note creates notes/notes.md and appends one line per call", async () => {
  await withDir(async (cwd) => {
    assert.deepEqual(await runTool(writeNote, { text: "first finding" }, { cwd }), {
      path: "notes/notes.md",
      appended_bytes: 14,
      total_bytes: 14,
    });
    assert.deepEqual(await runTool(writeNote, { text: "second" }, { cwd }), {
      path: "notes/notes.md",
      appended_bytes: 7,
      total_bytes: 21,
    });
    assert.equal(
      await readFile(join(cwd, "notes", "notes.md"), "utf8"),
      "first finding\nsecond\n",
    );
  });
});

Deno.test("write_note starts on a fresh line when the file lacks a final newline", async () => {
  await withDir(async (cwd) => {
    await mkdir(join(cwd, "notes", "docs"), { recursive: true });
    await writeFile(join(cwd, "notes", "docs", "todo.md"), "# Todo");
    await runTool(writeNote, { text: "ship it", file: "docs/todo.md" }, { cwd });
    assert.equal(
      await readFile(join(cwd, "notes", "docs", "todo.md"), "utf8"),
      "# Todo\nship it\n",
    );
  });
});

Deno.test("write_note refuses paths outside the notes directory", async () => {
  await withDir(async (cwd, root) => {
    await mkdir(join(cwd, "notes"));
    await symlink(join(root, "outside.md"), join(cwd, "notes", "escape.md"));
    await assert.rejects(
      runTool(writeNote, { text: "x", file: "../tools/x.ts" }, { cwd }),
      /^Error: Path is outside the notes\/ directory: \.\.\/tools\/x\.ts$/,
    );
    await assert.rejects(
      runTool(writeNote, { text: "x", file: join(root, "n.md") }, { cwd }),
      /outside the notes/,
    );
    await assert.rejects(
      runTool(writeNote, { text: "x", file: "escape.md" }, { cwd }),
      /^Error: Path is a broken symlink: escape\.md$/,
    );
    await writeFile(join(root, "existing.md"), "outside\n");
    await symlink(join(root, "existing.md"), join(cwd, "notes", "existing.md"));
    await assert.rejects(
      runTool(writeNote, { text: "x", file: "existing.md" }, { cwd }),
      /through a symlink/,
    );
    assert.equal(await readFile(join(root, "existing.md"), "utf8"), "outside\n");
    await assert.rejects(
      runTool(writeNote, { text: "x", file: "missing/n.md" }, { cwd }),
      /Directory not found/,
    );
    await assert.rejects(readFile(join(root, "outside.md")), { code: "ENOENT" });
  });
});

Deno.test("write_note is a write tool that takes exactly one line", () => {
  assert.equal(writeNote.effect, "write");
  assert.equal(writeNote.input.safeParse({ text: "two\nlines" }).success, false);
  assert.equal(writeNote.input.safeParse({ text: "" }).success, false);
  assert.equal(writeNote.input.safeParse({ text: "ok" }).success, true);
});
