import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import readText from "../../tools/read_text.ts";
import { runTool } from "./_context.ts";

async function withTree(fn: (cwd: string, outside: string) => Promise<void>) {
  const root = await realpath(await mkdtemp(join(tmpdir(), "magi-read-text-")));
  const cwd = join(root, "work");
  const outside = join(root, "secret.txt");
  await mkdir(join(cwd, "docs"), { recursive: true });
  await writeFile(outside, "top secret");
  await writeFile(join(cwd, "docs", "hello.txt"), "héllo wörld\n");
  try {
    await fn(cwd, outside);
  } finally {
    await rm(root, { recursive: true });
  }
}

Deno.test("read_text reads a whole file relative to the working directory", async () => {
  await withTree(async (cwd) => {
    assert.deepEqual(await runTool(readText, { path: "docs/hello.txt" }, { cwd }), {
      path: "docs/hello.txt",
      offset: 0,
      bytes: 14,
      total_bytes: 14,
      text: "héllo wörld\n",
    });
  });
});

Deno.test("read_text reads a slice and trims it to whole characters", async () => {
  await withTree(async (cwd) => {
    // "é" is bytes 1-2: a 2-byte slice from 0 would cut it, so it stops before.
    assert.deepEqual(await runTool(readText, { path: "docs/hello.txt", length: 2 }, { cwd }), {
      path: "docs/hello.txt",
      offset: 0,
      bytes: 1,
      total_bytes: 14,
      text: "h",
    });
    // Starting inside "é" skips its continuation byte.
    const slice = await runTool(readText, { path: "docs/hello.txt", offset: 2, length: 4 }, {
      cwd,
    });
    assert.deepEqual(slice, {
      path: "docs/hello.txt",
      offset: 3,
      bytes: 3,
      total_bytes: 14,
      text: "llo",
    });
    // Past the end: nothing, and the offset says where the file ends.
    const end = await runTool(readText, { path: "docs/hello.txt", offset: 100 }, { cwd });
    assert.deepEqual(end, {
      path: "docs/hello.txt",
      offset: 14,
      bytes: 0,
      total_bytes: 14,
      text: "",
    });
  });
});

Deno.test("read_text returns at least one character when length is shorter than it", async () => {
  await withTree(async (cwd) => {
    const result = await runTool(readText, { path: "docs/hello.txt", offset: 1, length: 1 }, {
      cwd,
    });
    assert.deepEqual(result, {
      path: "docs/hello.txt",
      offset: 1,
      bytes: 2,
      total_bytes: 14,
      text: "é",
    });
  });
});

Deno.test("read_text accepts an absolute path inside the working directory", async () => {
  await withTree(async (cwd) => {
    const result = await runTool(readText, { path: join(cwd, "docs/hello.txt") }, { cwd }) as {
      path: string;
    };
    assert.equal(result.path, "docs/hello.txt");
  });
});

const refused: [string, (cwd: string, outside: string) => string, RegExp][] = [
  [
    "a ../ path",
    () => "../secret.txt",
    /^Error: Path is outside the working directory: \.\.\/secret\.txt$/,
  ],
  [
    "a nested ../ path",
    () => "docs/../../secret.txt",
    /^Error: Path is outside the working directory/,
  ],
  [
    "an absolute path outside",
    (_cwd, outside) => outside,
    /^Error: Path is outside the working directory: \//,
  ],
];
for (const [what, path, message] of refused) {
  Deno.test(`read_text refuses ${what}`, async () => {
    await withTree(async (cwd, outside) => {
      await assert.rejects(runTool(readText, { path: path(cwd, outside) }, { cwd }), message);
    });
  });
}

Deno.test("read_text refuses a symlink that escapes the working directory", async () => {
  await withTree(async (cwd, outside) => {
    await symlink(outside, join(cwd, "link.txt"));
    await symlink(join(cwd, ".."), join(cwd, "up"));
    await assert.rejects(
      runTool(readText, { path: "link.txt" }, { cwd }),
      /^Error: Path resolves outside the working directory \(through a symlink\): link\.txt$/,
    );
    await assert.rejects(
      runTool(readText, { path: "up/secret.txt" }, { cwd }),
      /through a symlink/,
    );
  });
});

Deno.test("read_text follows a symlink that stays inside", async () => {
  await withTree(async (cwd) => {
    await symlink(join(cwd, "docs", "hello.txt"), join(cwd, "alias.txt"));
    const result = await runTool(readText, { path: "alias.txt" }, { cwd }) as {
      path: string;
      text: string;
    };
    assert.equal(result.path, "docs/hello.txt");
    assert.equal(result.text, "héllo wörld\n");
  });
});

Deno.test("read_text reports missing files, directories and non-UTF-8 content", async () => {
  await withTree(async (cwd) => {
    await writeFile(join(cwd, "binary.bin"), new Uint8Array([0x66, 0xff, 0xfe]));
    await assert.rejects(
      runTool(readText, { path: "nope.txt" }, { cwd }),
      /^Error: File not found: nope\.txt$/,
    );
    await assert.rejects(
      runTool(readText, { path: "docs" }, { cwd }),
      /^Error: Not a regular file: docs$/,
    );
    await assert.rejects(
      runTool(readText, { path: "binary.bin" }, { cwd }),
      /^Error: File is not valid UTF-8 text: binary\.bin$/,
    );
  });
});

Deno.test("read_text declares a read effect and read permission for the working directory", () => {
  assert.equal(readText.name, "read_text");
  assert.equal(readText.effect, "read");
  assert.deepEqual(readText.permissions, { read: ["."] });
  assert.equal(readText.input.safeParse({ path: "a", length: 16_385 }).success, false);
});
