/**
 * The runtime policy on Node.js: `src/runtime/mod.ts` bundled as the npm build does (the Deno
 * primitives swapped for Node's) and run under `node`: stop signals, stderr lines, stdin text,
 * private files and the path search behave as on Deno.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

async function hasNode(): Promise<boolean> {
  try {
    return (await new Deno.Command("node", { args: ["--version"], stdout: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

/** `src/runtime/mod.ts` for Node.js, bundled into `dir`; the bundle's path. */
async function bundleForNode(dir: string): Promise<string> {
  const esbuild = await import("npm:esbuild@^0.25");
  const outfile = `${dir}/runtime.mjs`;
  try {
    await esbuild.build({
      entryPoints: [`${ROOT}src/runtime/mod.ts`],
      outfile,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "silent",
      plugins: [{
        name: "node-runtime",
        setup(build) {
          build.onResolve({ filter: /\/deno\/mod\.ts$/ }, () => ({
            path: `${ROOT}src/runtime/node/mod.ts`,
          }));
        },
      }],
    });
  } finally {
    await esbuild.stop();
  }
  return outfile;
}

const SCRIPT = `
import { statSync, writeFileSync } from "node:fs";
import * as rt from "./runtime.mjs";
const out = {};
const calls = [];
const remove = rt.onInterrupt(() => calls.push("stop"));
out.listening = [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
// Wait for each signal's delivery (an event), not for a fixed time.
const delivered = async (count) => {
  for (let i = 0; calls.length < count && i < 3000; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};
process.kill(process.pid, "SIGTERM");
await delivered(1);
process.kill(process.pid, "SIGINT");
await delivered(2);
out.calls = calls;
out.first = rt.stopSignal();
remove();
out.removed = [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
out.name = [rt.runtimeName(), rt.supportsProcessIsolation()];
out.sh = await rt.findOnPath("sh");
const dir = await rt.makeTempDir("magi-tools-node-policy-");
writeFileSync(dir + "/old", "x", { mode: 0o644 });
await rt.writePrivateTextFile(dir + "/old", "secret");
await rt.writePrivateTextFile(dir + "/new/token", "t");
out.modes = [dir + "/old", dir + "/new/token", dir + "/new"].map((p) => statSync(p).mode & 0o777);
out.isDirectory = [await rt.isDirectory(dir), await rt.isDirectory(dir + "/old")];
await rt.removeAll(dir);
await rt.removeAll(dir);
out.gone = await rt.isDirectory(dir);
try {
  out.stdin = await rt.readStdinText(8);
} catch (error) {
  out.stdin = String(error);
}
rt.writeStderrLine("done \\x1b[31m");
await rt.writeStdout(new TextEncoder().encode(JSON.stringify(out)));
`;

Deno.test({
  name: "the runtime policy on Node.js: signals, stderr line, stdin bound, private files, path",
  ignore: !(await hasNode()),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "magi-tools-node-runtime-" });
    try {
      await bundleForNode(dir);
      await Deno.writeTextFile(`${dir}/check.mjs`, SCRIPT);
      const run = async (stdin: string) => {
        const child = new Deno.Command("node", {
          args: [`${dir}/check.mjs`],
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(stdin));
        await writer.close();
        const output = await child.output();
        const stderr = new TextDecoder().decode(output.stderr);
        assert.equal(output.code, 0, stderr);
        assert.equal(stderr, "done \\x1b[31m\n");
        return JSON.parse(new TextDecoder().decode(output.stdout));
      };
      const within = await run("héllo\n");
      assert.deepEqual(within.listening, [1, 1]);
      assert.deepEqual(within.calls, ["stop", "stop"]);
      assert.equal(within.first, "SIGTERM");
      assert.deepEqual(within.removed, [0, 0]);
      assert.deepEqual(within.name, ["node", false]);
      assert.match(within.sh, /\/sh$/);
      assert.deepEqual(within.modes, [0o600, 0o600, 0o700]);
      assert.deepEqual(within.isDirectory, [true, false]);
      assert.equal(within.gone, false);
      assert.equal(within.stdin, "héllo\n");
      const beyond = await run("123456789");
      assert.equal(beyond.stdin, "RangeError: Standard input exceeds 8 bytes");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
