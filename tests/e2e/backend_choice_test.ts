/**
 * No silent fake model (issue 32, item 2): outside this repository, with no `magi-code` on PATH
 * and no backend named, `run` and `batch` exit 3 saying how to fix it instead of running the
 * reference backend's scripted provider; `--agent reference` names it, and every record stream
 * (and the report) says which backend served.
 */
import assert from "node:assert/strict";
import { FIXTURE_TOOLS, ofType, one, runCli } from "./_cli.ts";

/** No magi-code here, and no MAGI_CODE_AGENT (an empty value is unset). */
const NO_BACKEND = { PATH: "/usr/bin:/bin", MAGI_CODE_AGENT: "" };

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-backend-choice-" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

Deno.test("run without magi-code and without --agent exits 3 naming the fix, nothing on stdout", async () => {
  await withDir(async (dir) => {
    const result = await runCli(
      ["run", "--no-config", "--tools", FIXTURE_TOOLS, 'note {"text":"x"}'],
      { cwd: dir, env: NO_BACKEND, raw: true },
    );
    assert.equal(result.code, 3, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /No agent backend: magi-code is not on PATH/);
    assert.match(result.stderr, /--agent reference/);
    assert.doesNotMatch(result.stderr, /using the reference backend/);
  });
});

Deno.test("batch without a backend exits 3 before any item runs (no green report)", async () => {
  await withDir(async (dir) => {
    const input = `${dir}/input.jsonl`;
    await Deno.writeTextFile(input, JSON.stringify({ id: "a", prompt: "hello" }) + "\n");
    const result = await runCli(
      ["batch", input, "--out", `${dir}/out`, "--no-config", "--tools", FIXTURE_TOOLS],
      { cwd: dir, env: NO_BACKEND, raw: true },
    );
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /No agent backend/);
    const index = await Deno.readTextFile(`${dir}/out/index.jsonl`).catch(() => "");
    assert.equal(index, "", "no item was recorded");
  });
});

Deno.test("--agent reference runs the reference backend and host.ready says so", async () => {
  await withDir(async (dir) => {
    const result = await runCli(
      ["run", "--agent", "reference", "--no-config", "--tools", FIXTURE_TOOLS, "hello"],
      { cwd: dir, env: NO_BACKEND },
    );
    assert.equal(result.code, 0, result.stderr);
    const ready = one(result.records, "host.ready");
    assert.deepEqual(ready.backend, {
      kind: "reference",
      command: "reference_backend",
      from: "flag",
    });
    assert.equal(ofType(result.records, "turn.finished").length, 1);
  });
});

Deno.test("MAGI_CODE_AGENT=reference names it too; the report of its batch shows the backend", async () => {
  await withDir(async (dir) => {
    const input = `${dir}/input.jsonl`;
    await Deno.writeTextFile(input, JSON.stringify({ id: "a", prompt: "hello" }) + "\n");
    const env = { ...NO_BACKEND, MAGI_CODE_AGENT: "reference" };
    const batch = await runCli(
      ["batch", input, "--out", `${dir}/out`, "--no-config", "--tools", FIXTURE_TOOLS],
      { cwd: dir, env, raw: true },
    );
    assert.equal(batch.code, 0, batch.stderr);
    const item = (await Deno.readTextFile(`${dir}/out/items/a.ndjson`)).split("\n")[0]!;
    assert.equal(JSON.parse(item).backend.kind, "reference");
    assert.equal(JSON.parse(item).backend.from, "env");
    const report = await runCli(["report", `${dir}/out`, "--markdown", "-"], {
      cwd: dir,
      env,
      raw: true,
    });
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stdout, /Backend: reference \(1 item\)\./);
    assert.match(report.stdout, /ran on the scripted reference backend/);
  });
});
