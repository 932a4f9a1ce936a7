import assert from "node:assert/strict";
import { join } from "node:path";
import { UsageError } from "../../../src/errors/mod.ts";
import { checkWritableFile } from "../../../src/cli/commands/_output_file.ts";

async function reason(path: string): Promise<string> {
  try {
    await checkWritableFile(path, "--last-message");
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error.message;
  }
  return "ok";
}

Deno.test("checkWritableFile() accepts a new file and leaves nothing behind", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(await reason(join(dir, "answer.txt")), "ok");
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkWritableFile() keeps an existing file's content", async () => {
  const file = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(file, "keep");
    assert.equal(await reason(file), "ok");
    assert.equal(await Deno.readTextFile(file), "keep");
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("checkWritableFile() names the flag, file and reason", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missing = join(dir, "no", "answer.txt");
    assert.equal(
      await reason(missing),
      `Option --last-message cannot be written: ${missing}: its directory does not exist`,
    );
    assert.equal(
      await reason(dir),
      `Option --last-message cannot be written: ${dir}: it is a directory`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "checkWritableFile() reports a file that cannot be created where it is",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // procfs: the directory exists, new files are refused even for root.
    assert.equal(
      await reason("/proc/magi-tools-answer.txt"),
      "Option --last-message cannot be written: /proc/magi-tools-answer.txt: it cannot be created there",
    );
  },
});
