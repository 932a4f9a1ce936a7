/**
 * Launch rules: `serve --stdio` takes no other flags or arguments, and stdin must be a pipe.
 * Invalid launch exits 2 before runtime side effects, with nothing on stdout.
 */

import assert from "node:assert/strict";
import { backendCommand, baseEnv } from "./_command.ts";
import { Backend, withBackend, Workspace } from "./_harness.ts";

for (const extra of [["--verbose"], ["extra-argument"], ["--cwd", "/tmp"]]) {
  Deno.test(`launch with extra arguments ${JSON.stringify(extra)} exits 2 with empty stdout`, async () => {
    await withBackend({ process: true, extraArgs: extra }, async (b: Backend) => {
      await b.expectExit(2);
      assert.equal(b.frames.length, 0, "no frames on stdout");
      assert.equal(b.partialTail, 0, "no bytes on stdout");
      assert.equal(await b.workspace.exists(b.workspace.mcHome), false, "MC_HOME not created");
    });
  });
}

Deno.test("launch with stdin a regular file exits 2 with empty stdout", async () => {
  const ws = await Workspace.create();
  try {
    const input = `${ws.root}/input.ndjson`;
    await Deno.writeTextFile(
      input,
      '{"protocol":"magi-code.local-agent","version":1,"id":"r1","method":"shutdown","params":{}}\n',
    );
    const env = { ...Deno.env.toObject(), ...baseEnv(), HOME: ws.home, MC_HOME: ws.mcHome };
    delete (env as Record<string, string>).MAGI_SCENARIO;
    const child = new Deno.Command("/bin/sh", {
      args: ["-c", 'f="$1"; shift; exec "$@" < "$f"', "sh", input, ...backendCommand()],
      cwd: ws.cwd,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 15_000);
    const out = await child.output().finally(() => clearTimeout(timer));
    assert.equal(out.code, 2, `exit code (stderr: ${new TextDecoder().decode(out.stderr)})`);
    assert.equal(out.stdout.length, 0, "nothing on stdout");
    assert.equal(await ws.exists(ws.mcHome), false, "MC_HOME not created");
  } finally {
    await ws.dispose();
  }
});
