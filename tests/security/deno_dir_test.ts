/**
 * Deno's cache directory (issue 23 item 5): under the kernel layer a tool with only
 * `run: ["sh"]` must not read another project's emitted JavaScript in `<DENO_DIR>/gen`
 * (its transpiled source, secrets included), while a tool importing npm packages still loads
 * them from the cache, offline (the tool has no `net`: the kernel refuses every TCP port).
 * Through the CLI under the `start` task's flags. Skipped without a usable Landlock.
 */
import assert from "node:assert/strict";
import { callTool } from "./_procs_cli.ts";
import { probeKernelSandbox } from "../../src/sandbox/kernel.ts";

const kernel = await probeKernelSandbox();

/** Where `deno info` says Deno's cache directory is. */
async function denoDir(): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
    env: { NO_COLOR: "1" },
  }).output();
  const info = JSON.parse(new TextDecoder().decode(output.stdout)) as { denoDir: string };
  return info.denoDir;
}

Deno.test({
  name: "DENO_DIR: another project's emitted JavaScript in gen/ is not readable by a tool",
  ignore: !kernel.available,
  fn: async () => {
    const other = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-tools-other-" }));
    try {
      const secret = `OTHER-PROJECT-SECRET-${crypto.randomUUID()}`;
      await Deno.writeTextFile(
        `${other}/config.ts`,
        `export const token: string = "${secret}";\nconsole.log(token.length);\n`,
      );
      // The other project runs once: Deno emits its JavaScript into the shared cache.
      const ran = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-config", `${other}/config.ts`],
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.equal(ran.code, 0, new TextDecoder().decode(ran.stderr));
      // Deno 2's layout: gen/file/<absolute path>.js.
      const emitted = `${await denoDir()}/gen/file${other}/config.ts.js`;
      assert.ok((await Deno.readTextFile(emitted)).includes(secret), `${emitted} holds the secret`);

      const { record, output } = await callTool("peek", { path: emitted });
      assert.equal(record.outcome, "success", output.stdout + output.stderr);
      const text = String(record.text);
      assert.ok(!text.includes(secret), `the tool read ${emitted}: ${text}`);
      assert.match(text, /Permission denied/);
      assert.match(text, /exit=1/);
    } finally {
      await Deno.remove(other, { recursive: true });
    }
  },
});

Deno.test({
  name: "DENO_DIR: a tool importing npm packages still loads them from the cache, offline",
  ignore: !kernel.available,
  fn: async () => {
    const { record, output } = await callTool("npm_user", { text: '{"n": 7, /* c */}' });
    assert.equal(record.outcome, "success", output.stdout + output.stderr);
    assert.equal(record.text, "n=7");
  },
});
