/**
 * The runtime policy on Node.js: `src/runtime/mod.ts` bundled as the npm build does (the Deno
 * primitives swapped for Node's) and run under `node`: stop signals, stderr lines, stdin text,
 * private files, the path search and a child's unflushed stdin bytes behave as on Deno.
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

const STDIN_SCRIPT = `
import { readFileSync } from "node:fs";
import * as rt from "./runtime.mjs";
/** The state letter of process pid in /proc (T: stopped), or "" once it is gone. */
const state = (pid) => {
  try {
    const stat = readFileSync("/proc/" + pid + "/stat", "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return "";
  }
};
/** Whether test() holds within 15 s, asked every 5 ms (an event, not a fixed time). */
const until = async (test) => {
  for (let i = 0; !test() && i < 3000; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  return test();
};
const out = {};
// The shell stops itself before anything reads its stdin; SIGCONT lets cat read it all.
const child = rt.spawnChild("sh", ["-c", "kill -STOP $$; cat > /dev/null"], { stderr: "null" });
out.type = typeof child.stdinUnflushed;
out.stopped = await until(() => state(child.pid) === "T");
out.before = child.stdinUnflushed();
const writer = child.stdin.getWriter();
const written = writer.write(new Uint8Array(256 * 1024).fill(0x61));
out.waiting = (await until(() => child.stdinUnflushed() > 0)) ? child.stdinUnflushed() : 0;
out.stillStopped = state(child.pid) === "T";
process.kill(child.pid, "SIGCONT");
await written;
out.after = await until(() => child.stdinUnflushed() === 0);
await writer.close();
out.exit = await child.exited;
await rt.writeStdout(new TextEncoder().encode(JSON.stringify(out)));
`;

Deno.test({
  name:
    "spawnChild's stdinUnflushed() on Node.js counts written bytes while they wait for the pipe, 0 once it took them",
  ignore: Deno.build.os !== "linux" || !(await hasNode()),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "magi-tools-node-stdin-" });
    try {
      await bundleForNode(dir);
      await Deno.writeTextFile(`${dir}/check.mjs`, STDIN_SCRIPT);
      const output = await new Deno.Command("node", {
        args: [`${dir}/check.mjs`],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
      const out = JSON.parse(new TextDecoder().decode(output.stdout));
      assert.equal(out.type, "function");
      assert.equal(out.stopped, true, "the child stopped");
      assert.equal(out.before, 0); // nothing written yet
      // The child reads nothing: what the pipe did not take (all but its 64 KiB) still counts.
      const size = 256 * 1024;
      assert.ok(out.waiting >= size - 64 * 1024 && out.waiting <= size, `waiting ${out.waiting}`);
      assert.equal(out.stillStopped, true);
      assert.equal(out.after, true, "the pipe took every byte");
      assert.deepEqual(out.exit, { code: 0, signal: null });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
