/**
 * `memoryMb` holds against memory outside V8's heap (issue 23 item 4): a tool with
 * `memoryMb: 128` allocating 1 GiB of ArrayBuffers must end as an error naming the limit,
 * through the CLI under the `start` task's flags (the host has no `--allow-all`, so it cannot
 * read `/proc/<pid>`); a tool within its cap still answers. Linux only (elsewhere only the
 * heap cap applies, and `tools --permissions-json` says `heap_only`, checked below).
 */
import assert from "node:assert/strict";
import { callTool, PROCS_TOOLS, ROOT, startCli } from "./_procs_cli.ts";

const linux = Deno.build.os === "linux";

Deno.test({
  name: "memory cap: 1 GiB of ArrayBuffers under memoryMb 128 is tool_crashed naming the limit",
  ignore: !linux,
  fn: async () => {
    const { record, output } = await callTool("hog", { mb: 1024 });
    assert.equal(record.outcome, "error", output.stdout);
    assert.equal(record.error_code, "tool_crashed", output.stdout);
    assert.equal(
      record.text,
      "Tool process crashed: the tool exceeded its memory limit of 128 MiB; it restarts for the next call",
    );
    assert.equal(output.code, 1);
  },
});

Deno.test({
  name: "memory cap: a tool within its cap (32 MiB of ArrayBuffers under 128) answers",
  ignore: !linux,
  fn: async () => {
    const { record, output } = await callTool("hog", { mb: 32 });
    assert.equal(record.outcome, "success", output.stdout + output.stderr);
    assert.equal(record.text, "held 32 MiB");
    assert.equal(output.code, 0);
  },
});

Deno.test("memory cap: tools --permissions-json says how memoryMb is enforced here", async () => {
  const output = await startCli(["tools", "--tools", PROCS_TOOLS, "--permissions-json"]);
  assert.equal(output.code, 0, output.stderr);
  const tools = JSON.parse(output.stdout) as { name: string; memory_enforcement: unknown }[];
  const hog = tools.find((tool) => tool.name === "hog");
  assert.equal(hog?.memory_enforcement, linux ? "rlimit" : "heap_only");
  // No memoryMb, no enforcement to report.
  assert.equal(tools.find((tool) => tool.name === "peek")?.memory_enforcement, null);
});

Deno.test({
  name:
    "memory cap: without the kernel layer (run --no-kernel-sandbox) the cap holds too; a call within it answers",
  ignore: !linux,
  fn: async () => {
    const home = await Deno.makeTempDir({ prefix: "magi-tools-memory-" });
    try {
      const output = await startCli(
        ["run", "--tools", PROCS_TOOLS, "--no-kernel-sandbox", "HOG_OVER_AND_WITHIN"],
        {
          env: {
            MC_HOME: home,
            MAGI_CODE_AGENT:
              `${Deno.execPath()} run -A ${ROOT}src/reference_backend/main.ts serve --stdio`,
            MAGI_SCENARIO: `${ROOT}tests/security/fixtures/procs_scenarios/memory.jsonc`,
          },
        },
      );
      assert.equal(output.code, 0, output.stderr);
      const records = output.stdout.trim().split("\n").map((line) => JSON.parse(line));
      const ready = records.find((r) => r.type === "host.ready");
      assert.equal(ready?.tools?.[0]?.sandbox, "deno");
      assert.equal(ready?.process_limits?.memory, "rlimit");
      const results = records.filter((r) => r.type === "tool.result")
        .map((r) => [r.outcome, r.error_code]);
      assert.deepEqual(results, [["error", "tool_crashed"], ["success", null]]);
      assert.match(output.stdout, /the tool exceeded its memory limit of 128 MiB/);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  },
});
