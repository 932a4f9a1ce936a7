import assert from "node:assert/strict";
import { fakeAgent, FIXTURE_TOOLS, ROOT, runCli } from "./_cli.ts";

Deno.test("tools --json prints the exact definitions as one JSON array", async () => {
  const result = await runCli(["tools", "--tools", FIXTURE_TOOLS, "--json"], { raw: true });
  assert.equal(result.code, 0, result.stderr);
  const definitions = JSON.parse(result.stdout);
  assert.ok(Array.isArray(definitions));
  const names = definitions.map((d: { name: string }) => d.name).sort();
  assert.deepEqual(names, ["big", "counter", "note", "sleepy", "slow_timeout", "stubborn"]);
  const slow = definitions.find((d: { name: string }) => d.name === "slow_timeout");
  assert.equal(slow.timeout_ms, 1000);
  assert.equal(slow.input_schema.type, "object");
});

Deno.test("tools lists byte costs and the frame budget left", async () => {
  const result = await runCli(["tools", "--tools", `${ROOT}tools`], { raw: true });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /^text_stats\tread\t\d+ bytes\t/m);
  assert.match(result.stdout, /bytes left$/m);
});

Deno.test("tools exits 2 naming a broken module", async () => {
  const result = await runCli(["tools", "--tools", `${ROOT}tests/e2e/fixtures/broken_tools`]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /bad\.ts/);
});

Deno.test("--help lists the exit codes and --version prints the version", async () => {
  const help = await runCli(["--help"], { raw: true });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /130 +interrupted/);
  const version = await runCli(["--version"], { raw: true });
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^magi-tools \d+\.\d+\.\d+\n$/);
});

Deno.test("run reads the prompt from stdin when no argument is given", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}mod.ts`, "run", "--tools", FIXTURE_TOOLS],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: {
      NO_COLOR: "1",
      MAGI_CODE_AGENT: fakeAgent("ok"),
    },
  }).spawn();
  const writer = output.stdin.getWriter();
  await writer.write(new TextEncoder().encode("hello from stdin\n"));
  await writer.close();
  const done = await output.output();
  assert.equal(done.code, 0, new TextDecoder().decode(done.stderr));
  const lines = new TextDecoder().decode(done.stdout).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.at(-1).type, "turn.finished");
});
