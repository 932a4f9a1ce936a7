/**
 * What a failed call shows (issue 24 item 7), through the CLI: an OpenAPI tool's invalid
 * arguments carry one `Invalid arguments: ` prefix (the model's text and `call`'s line); a
 * failed `call` prints one line and then only the tool's own stack frames, never the host's
 * runner frames; `run` reports it the same way on stderr.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ofType, one, ROOT, runCli, SCENARIO } from "../e2e/_cli.ts";
import { oasExample, serve } from "../openapi/_fixtures.ts";

const THROWER = `import { z } from "zod";
import { defineTool } from "${ROOT}mod.ts";

function inner(n: number): never {
  throw new TypeError("boom " + n);
}

export default defineTool({
  name: "thrower",
  description: "Throws.",
  input: z.strictObject({ n: z.int() }),
  effect: "read",
  run: ({ n }) => inner(n),
});
`;

Deno.test("call: a tool that throws gives one line, then its own frames only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-failure-" });
  try {
    await Deno.writeTextFile(join(dir, "thrower.ts"), THROWER);
    const failed = await runCli(["call", "--tools", dir, "thrower", '{"n":1}'], { raw: true });
    assert.equal(failed.code, 1, failed.stderr);
    const lines = failed.stderr.trimEnd().split("\n");
    assert.equal(lines[0], "magi-tools: tool_failed: boom 1");
    assert.equal(lines.length, 3, failed.stderr);
    assert.match(lines[1]!, /^ {4}at inner \(file:\/\/.*\/thrower\.ts:5:9\)$/);
    assert.match(lines[2]!, /^ {4}at .*thrower\.ts:\d+:\d+\)?$/);
    assert.doesNotMatch(failed.stderr, /src\/(?:tool|toolset|call|sandbox)\//);
    // With --json: the record on stdout, and one report on stderr (no second line).
    const json = await runCli(["call", "--tools", dir, "thrower", '{"n":1}', "--json"], {
      raw: true,
    });
    assert.equal(JSON.parse(json.stdout).text, "boom 1");
    const report = json.stderr.trimEnd().split("\n");
    assert.equal(report[0], `Tool thrower (${join(dir, "thrower.ts")}) failed: TypeError: boom 1`);
    assert.equal(report.length, 3, json.stderr);
    // The legitimate call next to it still succeeds, quietly.
    const ok = await runCli(["call", "--tools", dir, "thrower", '{"n":"x"}'], { raw: true });
    assert.equal(
      ok.stderr,
      "magi-tools: invalid_arguments: Invalid arguments: n: expected number, received string\n",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run: the host's report of a throwing tool has the tool's frames only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-failure-" });
  try {
    await Deno.writeTextFile(join(dir, "thrower.ts"), THROWER);
    const result = await runCli(["run", "--tools", dir, 'thrower {"n":2}'], {
      env: { MAGI_SCENARIO: SCENARIO },
    });
    assert.equal(one(result.records, "tool.result").error_code, "tool_failed");
    assert.match(
      result.stderr,
      /Tool thrower \(.*thrower\.ts\) failed: TypeError: boom 2\n {4}at inner /,
    );
    assert.doesNotMatch(result.stderr, /src\/sandbox\/runner\.ts/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("OpenAPI: invalid arguments say 'Invalid arguments: ' once, to the model and in call", async () => {
  const server = serve(() =>
    new Response("{}", { headers: { "content-type": "application/json" } })
  );
  const dir = await Deno.makeTempDir({ prefix: "magi-failure-oas-" });
  try {
    const config = join(dir, "magi-tools.jsonc");
    await Deno.mkdir(join(dir, "tools"));
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        openapi: {
          petstore: {
            spec: await oasExample("3.0/yaml/petstore.yaml"),
            baseUrl: new URL("/v2", server.url).href,
            include: ["getPetById"],
          },
        },
      }),
    );
    const base = ["--config", config, "--tools", join(dir, "tools")];
    const call = await runCli(["call", "getPetById", '{"petId":"x"}', ...base], { raw: true });
    assert.equal(call.code, 1, call.stderr);
    assert.equal(
      call.stderr,
      "magi-tools: invalid_arguments: Invalid arguments: petId: must be integer\n",
    );
    const run = await runCli(["run", ...base, 'getPetById {"petId":"x"}'], {
      env: { MAGI_SCENARIO: SCENARIO },
    });
    const answer = ofType(run.records, "message").map((m) => String(m.text)).join("\n");
    assert.match(
      answer,
      /getPetById → error \(invalid_arguments\): Invalid arguments: petId: must be integer/,
    );
    assert.doesNotMatch(answer, /Invalid arguments: Invalid arguments/);
    // A valid call goes through.
    const good = await runCli(["call", "getPetById", '{"petId":42}', ...base], { raw: true });
    assert.equal(good.code, 0, good.stderr);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
