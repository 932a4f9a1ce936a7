import assert from "node:assert/strict";
import { spawnChild } from "../../src/runtime/mod.ts";
import { eventually } from "../_wait.ts";
import { processState } from "../_kit/proc.ts";

Deno.test({
  name:
    "spawnChild's stdinUnflushed() counts written bytes while they wait for the pipe, 0 once it took them",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    // The shell stops itself before anything reads its stdin; SIGCONT lets `cat` read it all.
    const child = spawnChild("sh", ["-c", "kill -STOP $$; cat > /dev/null"], { stderr: "null" });
    try {
      const unflushed = child.stdinUnflushed;
      assert.equal(typeof unflushed, "function");
      assert.ok(await eventually(() => processState(child.pid) === "T"), "the child stopped");
      assert.equal(unflushed!(), 0); // nothing written yet
      const writer = child.stdin.getWriter();
      // Four times a default pipe's 64 KiB: most of it must wait in this process.
      const size = 256 * 1024;
      const written = writer.write(new Uint8Array(size).fill(0x61));
      assert.ok(await eventually(() => unflushed!() > 0, 30_000, 0), "the bytes are on their way");
      assert.equal(processState(child.pid), "T");
      // The child still reads nothing: what the pipe did not take (at least 3/4) still counts.
      const waiting = unflushed!();
      assert.ok(waiting >= size - 64 * 1024 && waiting <= size, `unflushed ${waiting}`);
      Deno.kill(child.pid, "SIGCONT");
      await written;
      assert.ok(await eventually(() => unflushed!() === 0), "the pipe took every byte");
      await writer.close();
      assert.deepEqual(await child.exited, { code: 0, signal: null });
    } finally {
      child.kill("SIGKILL");
      await child.exited;
    }
  },
});
