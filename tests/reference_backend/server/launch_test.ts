import assert from "node:assert/strict";
import { checkArguments, checkStdio } from "../../../src/reference_backend/server/launch.ts";

const BACKEND = new URL("../../../src/reference_backend/main.ts", import.meta.url).pathname;

Deno.test("checkArguments() accepts exactly serve --stdio", () => {
  assert.equal(checkArguments(["serve", "--stdio"]).ok, true);
  for (const args of [[], ["serve"], ["serve", "--stdio", "-v"], ["--stdio", "serve"]]) {
    assert.equal(checkArguments(args).ok, false, args.join(" "));
  }
});

Deno.test("checkStdio() requires both streams to be pipes", () => {
  assert.equal(checkStdio({ stdin: "pipe", stdout: "pipe" }).ok, true);
  assert.equal(checkStdio({ stdin: "terminal", stdout: "pipe" }).ok, false);
  assert.equal(checkStdio({ stdin: "pipe", stdout: "file" }).ok, false);
  assert.equal(checkStdio({ stdin: "other", stdout: "pipe" }).ok, false);
});

Deno.test("an extra argument exits 2 with a message and no protocol output", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", BACKEND, "serve", "--stdio", "--verbose"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(out.code, 2);
  assert.equal(out.stdout.byteLength, 0);
  assert.ok(out.stderr.byteLength > 0);
});

Deno.test("stdin from a regular file exits 2 before creating MC_HOME", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/in.txt`, "");
    const child = new Deno.Command("/bin/sh", {
      args: ["-c", `"${Deno.execPath()}" run -A "${BACKEND}" serve --stdio < in.txt | cat`],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1", MC_HOME: `${dir}/home`, PATH: Deno.env.get("PATH") ?? "" },
    });
    const out = await child.output();
    assert.equal(new TextDecoder().decode(out.stdout), "");
    await assert.rejects(Deno.stat(`${dir}/home`));
    assert.match(new TextDecoder().decode(out.stderr), /stdin .*must be a pipe/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
