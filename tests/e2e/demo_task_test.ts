import assert from "node:assert/strict";
import { ROOT } from "./_cli.ts";
import { matchGolden } from "./golden.ts";

Deno.test("deno task demo runs under its least-privilege flags with any TMPDIR", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "magi-tools-e2e-tmpdir-" });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "demo"],
      cwd: ROOT,
      stdin: "null",
      env: { NO_COLOR: "1", TMPDIR: tmp },
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    const records = stdout.trim().split("\n").map((line) => JSON.parse(line));
    const golden = await Deno.readTextFile(`${ROOT}tests/e2e/golden/demo.ndjson`);
    const mismatch = matchGolden(golden, records);
    assert.equal(mismatch, null, `${mismatch}\nstderr:\n${stderr}`);
    // The demo's temporary MC_HOME was created under TMPDIR and removed afterwards.
    assert.deepEqual([...Deno.readDirSync(tmp)], []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
