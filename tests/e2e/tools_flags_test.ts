import assert from "node:assert/strict";
import { FIXTURE_TOOLS, one, REFERENCE_AGENT, ROOT, runCli } from "./_cli.ts";
import { SummaryRecordSchema } from "../../src/summary/records.ts";

const SANDBOX_TOOLS = `${ROOT}tests/e2e/fixtures/sandbox_tools`;

Deno.test("tools lists each tool's isolation and permissions; --json stays the exact definitions", async () => {
  const listing = await runCli(["tools", "--tools", SANDBOX_TOOLS], { raw: true });
  assert.equal(listing.code, 0, listing.stderr);
  assert.match(listing.stdout, /^loop\tread\t\d+ bytes\t.*\tprocess; write=out\t(kernel\+)?deno$/m);
  assert.match(listing.stdout, /^chatty\tread\t.*\tprocess; no permissions\t(kernel\+)?deno$/m);
  const inline = await runCli(["tools", "--tools", FIXTURE_TOOLS], { raw: true });
  assert.match(inline.stdout, /^counter\t.*\tinline \(host permissions\); no permissions\tnone$/m);
  const json = await runCli(["tools", "--tools", SANDBOX_TOOLS, "--json"], { raw: true });
  for (const definition of JSON.parse(json.stdout)) {
    assert.equal("permissions" in definition || "isolation" in definition, false);
  }
});

Deno.test("tools --permissions-json prints each tool's sandbox settings", async () => {
  const result = await runCli(["tools", "--tools", SANDBOX_TOOLS, "--permissions-json"], {
    raw: true,
  });
  assert.equal(result.code, 0, result.stderr);
  const loop = JSON.parse(result.stdout).find((t: { name: string }) => t.name === "loop");
  assert.deepEqual({ ...loop, sandbox: undefined }, {
    name: "loop",
    isolation: "process",
    memoryMb: null,
    permissions: { write: ["out"] },
    sandbox: undefined,
    memory_enforcement: null,
  });
  assert.ok(["kernel+deno", "deno"].includes(loop.sandbox), loop.sandbox);
});

Deno.test("run works under exactly the flags tools --deno-flags prints", async () => {
  const printed = await runCli(["tools", "--tools", SANDBOX_TOOLS, "--deno-flags"], { raw: true });
  assert.equal(printed.code, 0, printed.stderr);
  const flags = printed.stdout.trim().split(" ");
  assert.equal(flags[0], "--no-prompt");
  for (const flag of flags.slice(1)) assert.match(flag, /^--allow-(read|env|run)=[^,]/);
  const read = flags.find((f) => f.startsWith("--allow-read="))?.slice(13).split(",");
  assert.equal(read?.[0], SANDBOX_TOOLS, printed.stdout);
  const home = await Deno.makeTempDir({ prefix: "magi-tools-e2e-flags-" });
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, `${ROOT}mod.ts`, "run", "--tools", SANDBOX_TOOLS, "CHATTY"],
    cwd: ROOT,
    stdin: "null",
    env: {
      NO_COLOR: "1",
      MAGI_CODE_AGENT: REFERENCE_AGENT,
      MAGI_SCENARIO: `${ROOT}tests/e2e/fixtures/scenarios/sandbox.jsonc`,
      MC_HOME: home,
    },
  }).output().finally(() => Deno.remove(home, { recursive: true }));
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  const records = new TextDecoder().decode(output.stdout).trim().split("\n").map((line) =>
    SummaryRecordSchema.parse(JSON.parse(line))
  );
  assert.equal(one(records, "tool.result").outcome, "success");
  assert.match(String(one(records, "tool.log").text), /chatty: raw stdout/);
});
