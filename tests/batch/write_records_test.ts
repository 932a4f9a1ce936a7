/**
 * A CI run's record of what its write tools did (issue 32, item 5, and the batch parts of
 * item 7): denials counted as denials, each failed item's first error in the index and the
 * report, one definition of success in the report's headline and outcome table, the item
 * named by `--fail-on-tool-error`, and `--record-args` (or the config's `records.arguments`)
 * putting the arguments, configured secrets redacted, into `tool.call` records.
 */
import assert from "node:assert/strict";
import { FIXTURE_TOOLS, indexLines, ROOT, runCli, writeInput } from "./_batch.ts";

const SECRET = "s3cret-token-4711";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-write-records-" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** A loopback port with nothing listening on it. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A project config with an OpenAPI source whose token is `TICKETS_TOKEN` (at a closed port). */
async function openapiConfig(dir: string, extra: Record<string, unknown> = {}): Promise<string> {
  await Deno.copyFile(`${ROOT}examples/openapi/tickets.yaml`, `${dir}/tickets.yaml`);
  const config = {
    openapi: {
      tickets: {
        spec: "tickets.yaml",
        baseUrl: `http://127.0.0.1:${closedPort()}/api`,
        auth: { header: "Authorization", valueFromEnv: "TICKETS_TOKEN", prefix: "Bearer " },
        include: ["getTicket"],
      },
    },
    ...extra,
  };
  await Deno.writeTextFile(`${dir}/magi-tools.jsonc`, JSON.stringify(config));
  return `${dir}/magi-tools.jsonc`;
}

Deno.test("batch counts a denied write as denied, names the item and its first error; the report agrees with itself", async () => {
  await withDir(async (dir) => {
    const input = await writeInput(dir, [
      { id: "denied", prompt: 'note {"text":"hello"}' },
      { id: "fine", prompt: 'counter {"ms":0}' },
      { id: "broken", prompt: "FAILME" },
    ]);
    const out = `${dir}/out`;
    const run = await runCli([
      "batch",
      input,
      "--out",
      out,
      "--tools",
      FIXTURE_TOOLS,
      "--no-config",
      "--fail-on-tool-error",
    ]);
    assert.equal(run.code, 1, run.stderr);
    // --fail-on-tool-error names the item whose turn it failed.
    assert.match(run.stderr, /--fail-on-tool-error: item denied: 1 tool error\(s\) or denial\(s\)/);
    const index = new Map((await indexLines(out)).map((e) => [e.id as string, e]));
    const denied = index.get("denied")!;
    assert.equal(denied.outcome, "completed");
    assert.equal(denied.exit_code, 1);
    assert.deepEqual(denied.tool_calls, { success: 0, error: 0, cancelled: 0, denied: 1 });
    assert.match(String(denied.error), /^tool_errors: first: denied \(flag\): /);
    assert.deepEqual((index.get("fine")!.tool_calls as { denied: number }).denied, 0);
    const report = await runCli(["report", out, "--markdown", "-"]);
    assert.equal(report.code, 0, report.stderr);
    const md = report.stdout;
    // One definition: succeeded = completed with exit 0; the table's rows add up to it.
    assert.match(
      md,
      /3 items from 1 folder: \*\*1 succeeded\*\*, \*\*2 failed\*\* \(succeeded: the turn completed with exit code 0\)/,
    );
    assert.match(md, /\| completed \| 1 \| /);
    assert.match(md, /\| completed, exit ≠ 0 \| 1 \| /);
    assert.match(md, /\| failed \| 1 \| /);
    // The failed list shows the first error, not only "tool_errors".
    assert.match(
      md,
      /\| `denied` \| completed, exit ≠ 0 \| 1 \| tool_errors: first: denied \(flag\): /,
    );
  });
});

Deno.test("--record-args puts the arguments on tool.call with the configured secret redacted; off by default", async () => {
  await withDir(async (dir) => {
    const config = await openapiConfig(dir);
    const input = await writeInput(dir, [
      { id: "w", prompt: `note {"text":"use ${SECRET} now"}` },
    ]);
    const env = { TICKETS_TOKEN: SECRET, MAGI_TOOLS_TRUST_CONFIG: "1" };
    const common = ["--tools", FIXTURE_TOOLS, "--config", config, "--approve", "allow"];
    const plain = await runCli(["batch", input, "--out", `${dir}/plain`, ...common], { env });
    assert.equal(plain.code, 0, plain.stderr);
    const plainCall = (await Deno.readTextFile(`${dir}/plain/items/w.ndjson`)).split("\n")
      .filter((l) => l !== "").map((l) => JSON.parse(l)).find((r) => r.type === "tool.call");
    assert.equal(plainCall.arguments, undefined, "not recorded unless asked");
    const recorded = await runCli(
      ["batch", input, "--out", `${dir}/recorded`, ...common, "--record-args"],
      { env },
    );
    assert.equal(recorded.code, 0, recorded.stderr);
    const text = await Deno.readTextFile(`${dir}/recorded/items/w.ndjson`);
    assert.ok(!text.includes(SECRET), "the secret never reaches the records");
    const call = text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l))
      .find((r) => r.type === "tool.call");
    assert.deepEqual(call.arguments, { text: "use [redacted] now" });
  });
});

Deno.test('the config\'s "records": {"arguments": true} records arguments as --record-args does', async () => {
  await withDir(async (dir) => {
    const config = await openapiConfig(dir, { records: { arguments: true } });
    const input = await writeInput(dir, [{ id: "w", prompt: `note {"text":"${SECRET}"}` }]);
    const run = await runCli(
      [
        "batch",
        input,
        "--out",
        `${dir}/out`,
        "--tools",
        FIXTURE_TOOLS,
        "--config",
        config,
        "--approve",
        "allow",
      ],
      { env: { TICKETS_TOKEN: SECRET, MAGI_TOOLS_TRUST_CONFIG: "1" } },
    );
    assert.equal(run.code, 0, run.stderr);
    const records = (await Deno.readTextFile(`${dir}/out/items/w.ndjson`)).split("\n")
      .filter((l) => l !== "").map((l) => JSON.parse(l));
    const call = records.find((r) => r.type === "tool.call");
    assert.deepEqual(call.arguments, { text: "[redacted]" });
    const [entry] = await indexLines(`${dir}/out`);
    assert.deepEqual(entry!.tool_calls, { success: 1, error: 0, cancelled: 0, denied: 0 });
  });
});

Deno.test("an OpenAPI call that cannot connect names the host, the port and ECONNREFUSED", async () => {
  await withDir(async (dir) => {
    const config = await openapiConfig(dir);
    const port = JSON.parse(await Deno.readTextFile(config)).openapi.tickets.baseUrl
      .match(/:(\d+)\/api$/)[1];
    const run = await runCli(
      ["call", "getTicket", '{"id":"T-1"}', "--config", config, "--tools", FIXTURE_TOOLS],
      { env: { TICKETS_TOKEN: SECRET, MAGI_TOOLS_TRUST_CONFIG: "1" } },
    );
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      new RegExp(`Request failed: 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): `),
    );
    assert.ok(!run.stderr.includes(SECRET));
  });
});
