import assert from "node:assert/strict";
import {
  findOnPath,
  isDirectory,
  removeAll,
  writePrivateTextFile,
} from "../../src/runtime/policy.ts";

const MOD = new URL("../../src/runtime/mod.ts", import.meta.url).href;

Deno.test({
  name: "writePrivateTextFile() makes the file 0600 (an existing one too) and new folders 0700",
  ignore: Deno.build.os === "windows",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "magi-tools-policy-" });
    try {
      await writePrivateTextFile(`${dir}/new/deeper/token.json`, "{}");
      assert.equal((await Deno.stat(`${dir}/new/deeper/token.json`)).mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(`${dir}/new/deeper`)).mode! & 0o777, 0o700);
      await Deno.writeTextFile(`${dir}/old.json`, "x", { mode: 0o644 });
      await Deno.chmod(`${dir}/old.json`, 0o644);
      await writePrivateTextFile(`${dir}/old.json`, "secret");
      assert.equal(await Deno.readTextFile(`${dir}/old.json`), "secret");
      assert.equal((await Deno.stat(`${dir}/old.json`)).mode! & 0o777, 0o600);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("findOnPath() finds an executable on PATH, checks a path as given, and skips the rest", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-policy-" });
  try {
    await Deno.writeTextFile(`${dir}/plain`, "", { mode: 0o644 });
    await Deno.writeTextFile(`${dir}/runnable`, "#!/bin/sh\n", { mode: 0o755 });
    await Deno.chmod(`${dir}/runnable`, 0o755);
    const sh = await findOnPath("sh");
    assert.ok(sh !== null && sh.endsWith("/sh"), String(sh));
    assert.equal(await findOnPath(`${dir}/runnable`), `${dir}/runnable`);
    assert.equal(await findOnPath(`${dir}/plain`), null, "not executable");
    assert.equal(await findOnPath(dir), null, "a directory is no command");
    assert.equal(await findOnPath("magi-tools-no-such-command"), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("isDirectory() and removeAll(): a folder, a file, a missing path", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-policy-" });
  await Deno.writeTextFile(`${dir}/f`, "");
  assert.equal(await isDirectory(dir), true);
  assert.equal(await isDirectory(`${dir}/f`), false);
  assert.equal(await isDirectory(`${dir}/missing`), false);
  await removeAll(dir);
  assert.equal(await isDirectory(dir), false);
  await removeAll(dir); // already gone: no throw
});

/** Run `code` (importing the runtime as `rt`) with `stdin`; its exit code, stdout and stderr. */
async function child(code: string, stdin: string) {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["eval", `import * as rt from "${MOD}";\n${code}`],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = process.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const output = await process.output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test("readStdinText() reads stdin up to its bound; writeStderrLine() shows control characters", async () => {
  const script = `try {
  await rt.writeStdout(new TextEncoder().encode(await rt.readStdinText(8)));
} catch (error) {
  rt.writeStderrLine(String(error) + " \\x1b[31m");
  rt.exitProcess(3);
}`;
  const within = await child(script, "héllo\n");
  assert.deepEqual([within.code, within.stdout, within.stderr], [0, "héllo\n", ""]);
  const beyond = await child(script, "123456789");
  assert.equal(beyond.code, 3);
  assert.equal(beyond.stdout, "");
  assert.equal(beyond.stderr, "RangeError: Standard input exceeds 8 bytes \\x1b[31m\n");
});
