/**
 * More than 32 tools, through the CLI: a generated OpenAPI document of 300 operations (150
 * read, 150 write) on a loopback API. `tools`, `call` and `mcp` (the official MCP SDK client)
 * serve all 300; `run` against the reference backend registers the first tools plus
 * `tool_search`, `tool_call` and `tool_call_write`, and the scripted provider finds a tool with
 * `tool_search` and runs it through the dispatcher, recorded under the real tool's name. A write
 * tool is refused by `tool_call` and needs approval through `tool_call_write`.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { FULL_CLI, ofType, one, type Rec, ROOT, runCli } from "./_cli.ts";
import { json, serve } from "../openapi/_fixtures.ts";
import { SEARCH_ANSWER_BYTES } from "../../src/toolset/catalog.ts";

const COUNT = 150;

/** 300 operations: `get_thing_<i>` (GET, read) and `create_thing_<i>` (POST, write). */
function document(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < COUNT; i++) {
    paths[`/things${i}/{id}`] = {
      get: {
        operationId: `get_thing_${i}`,
        summary: `Fetch one thing of kind ${i} by id.`,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "the thing" } },
      },
    };
    paths[`/things${i}`] = {
      post: {
        operationId: `create_thing_${i}`,
        summary: `Create a thing of kind ${i}.`,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { label: { type: "string" } },
                required: ["label"],
              },
            },
          },
        },
        responses: { "201": { description: "created" } },
      },
    };
  }
  return { openapi: "3.0.3", info: { title: "things", version: "1" }, paths };
}

async function setup() {
  const server = serve((req) => {
    if (req.method === "GET") return json({ path: req.url.pathname });
    return json({ created: req.url.pathname, body: JSON.parse(req.body || "null") }, 201);
  });
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-many-" });
  const spec = join(dir, "things.json");
  await Deno.writeTextFile(spec, JSON.stringify(document()));
  const config = join(dir, "magi-tools.jsonc");
  await Deno.writeTextFile(
    config,
    JSON.stringify({ openapi: { things: { spec, baseUrl: server.url.href } } }),
  );
  await Deno.mkdir(join(dir, "tools"));
  return {
    server,
    config,
    tools: join(dir, "tools"),
    args: ["--config", config, "--tools", join(dir, "tools")],
    async close() {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("tools and call: 300 OpenAPI operations are listed and callable", async () => {
  const env = await setup();
  try {
    const listing = await runCli(["tools", ...env.args], { raw: true });
    assert.equal(listing.code, 0, listing.stderr);
    assert.match(listing.stdout, /^get_thing_149\tread\t/m);
    assert.match(listing.stdout, /^create_thing_0\twrite\t/m);
    assert.match(
      listing.stdout,
      /^more than 32 tools: run and batch register the first 29 directly and reach the other 271 through tool_search, tool_call, tool_call_write$/m,
    );
    assert.match(listing.stdout, /^300 tool\(s\); initialize request \d+ of 65536 bytes/m);

    const defs = await runCli(["tools", ...env.args, "--json"], { raw: true });
    assert.equal(defs.code, 0, defs.stderr);
    assert.equal((JSON.parse(defs.stdout) as unknown[]).length, 300);

    const call = await runCli(["call", "get_thing_149", '{"id":"x7"}', ...env.args], {
      raw: true,
    });
    assert.equal(call.code, 0, call.stderr);
    assert.deepEqual(JSON.parse(call.stdout), { path: "/things149/x7" });
  } finally {
    await env.close();
  }
});

Deno.test("mcp: the SDK client lists all 300 tools and calls one past the 32nd", async () => {
  const env = await setup();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, "mcp", ...env.args, "--approve", "allow"],
    cwd: ROOT,
    env: { ...Deno.env.toObject(), NO_COLOR: "1" },
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "1.0.0" });
  try {
    await client.connect(transport);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((tool: { name: string }) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    assert.equal(names.length, 300);
    assert.ok(names.includes("create_thing_149") && names.includes("get_thing_0"));
    const result = await client.callTool({
      name: "create_thing_120",
      arguments: { body: { label: "L" } },
    });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.equal(env.server.seen.filter((r) => r.method === "POST").length, 1);
  } finally {
    await client.close();
    await env.close();
  }
});

function results(records: Rec[]): [unknown, unknown, unknown, unknown][] {
  return ofType(records, "tool.result").map((
    r,
  ) => [r["name"], r["via"], r["outcome"], r["error_code"]]);
}

Deno.test("run: tool_search finds a tool past the registration; tool_call runs it as itself", async () => {
  const env = await setup();
  try {
    const prompt = 'tool_search {"query":"fetch thing kind 140"} then ' +
      'tool_call {"name":"get_thing_140","arguments":{"id":"q1"}} then ' +
      'tool_call_write {"name":"create_thing_141","arguments":{"body":{"label":"a"}}}';
    const denied = await runCli(["run", ...env.args, prompt]);
    assert.equal(denied.code, 0, denied.stderr);
    const ready = one(denied.records, "host.ready");
    assert.equal((ready["tools"] as unknown[]).length, 300);
    const calls = ofType(denied.records, "tool.call").map((r) => [r["name"], r["via"]]);
    assert.deepEqual(calls.sort(), [["get_thing_140", "tool_call"], ["tool_search", undefined]]);
    assert.deepEqual(results(denied.records).sort(), [
      ["get_thing_140", "tool_call", "success", null],
      ["tool_search", undefined, "success", null],
    ]);
    // The write tool needs approval (default deny): nothing was posted.
    assert.equal(env.server.seen.filter((r) => r.method === "POST").length, 0);
    assert.deepEqual(env.server.seen.map((r) => r.url.pathname), ["/things140/q1"]);
    const message = String(one(denied.records, "message")["text"]);
    assert.match(message, /tool_call_write → denied/);
    // The search answer: get_thing_140 first, bounded in bytes.
    const search = ofType(denied.records, "tool.result").find((r) => r["name"] === "tool_search")!;
    assert.ok((search["bytes"] as number) <= SEARCH_ANSWER_BYTES);
    assert.match(
      message,
      /tool_search → \{"tools":\[\{"name":"get_thing_140","effect":"read","call_with":"tool_call"/,
    );

    // A write tool through tool_call is refused; with approval tool_call_write runs it.
    const allowed = await runCli([
      "run",
      ...env.args,
      "--approve",
      "allow",
      'tool_call {"name":"create_thing_141","arguments":{"body":{"label":"a"}}} then ' +
      'tool_call_write {"name":"create_thing_142","arguments":{"body":{"label":"b"}}}',
    ]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.deepEqual(results(allowed.records).sort(), [
      ["create_thing_141", "tool_call", "error", "invalid_arguments"],
      ["create_thing_142", "tool_call_write", "success", null],
    ]);
    assert.match(
      String(one(allowed.records, "message")["text"]),
      /create_thing_141 is a write tool: call it with tool_call_write/,
    );
    assert.deepEqual(
      env.server.seen.filter((r) => r.method === "POST").map((r) => [r.url.pathname, r.body]),
      [["/things142", '{"label":"b"}']],
    );
  } finally {
    await env.close();
  }
});

Deno.test("tools, mcp and run: 34 tool modules (over the 32-tool registration)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-34-" });
  try {
    for (let i = 0; i < 34; i++) {
      const name = `mod_${String(i).padStart(2, "0")}`;
      await Deno.writeTextFile(
        join(dir, `${name}.ts`),
        `import { z } from "zod";
import { defineTool } from ${JSON.stringify(`${ROOT}src/tool/define.ts`)};
export default defineTool({
  name: "${name}",
  description: "Trivial module number ${i}: returns its number.",
  input: z.strictObject({}),
  effect: "${i === 33 ? "write" : "read"}",
  run: () => "module ${i}",
});
`,
      );
    }
    const listing = await runCli(["tools", "--no-config", "--tools", dir], { raw: true });
    assert.equal(listing.code, 0, listing.stderr);
    assert.match(listing.stdout, /^34 tool\(s\); /m);

    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", ...FULL_CLI, "-A", `${ROOT}cli.ts`, "mcp", "--no-config", "--tools", dir],
      cwd: ROOT,
      env: { ...Deno.env.toObject(), NO_COLOR: "1" },
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1.0.0" });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.equal(tools.length, 34);
      const result = await client.callTool({ name: "mod_32", arguments: {} });
      assert.deepEqual(result.content, [{ type: "text", text: "module 32" }]);
    } finally {
      await client.close();
    }

    // A process-isolated module behind the registration, found and run through the dispatcher.
    const run = await runCli([
      "run",
      "--no-config",
      "--tools",
      dir,
      'tool_search {"query":"module number 31"} then tool_call {"name":"mod_31","arguments":{}} ' +
      'then tool_call_write {"name":"mod_33","arguments":{}}',
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(results(run.records).sort(), [
      ["mod_31", "tool_call", "success", null],
      ["tool_search", undefined, "success", null],
    ]);
    const message = String(one(run.records, "message")["text"]);
    assert.match(message, /tool_search → \{"tools":\[\{"name":"mod_31"/);
    assert.match(message, /tool_call → module 31/);
    assert.match(message, /tool_call_write → denied/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
