/**
 * The OpenAPI source end to end: `magi-tools.jsonc` with the real Swagger
 * Petstore document (pinned npm package), `run` against the reference
 * backend calling the generated tools on a loopback API, and `tools` listing
 * them with their costs. The API key never appears in any output.
 */

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { FULL_CLI, ofType, one, REFERENCE_AGENT, ROOT, runCli } from "./_cli.ts";
import { json, oasExample, serve } from "../openapi/_fixtures.ts";

const KEY = "petstore-e2e-s3cr3t";

async function setup(entry: Record<string, unknown> = {}) {
  const server = serve((req) => {
    if (req.headers.get("api_key") !== KEY) return json({ message: "no key" }, 401);
    const path = req.url.pathname;
    if (req.method === "GET" && path === "/v2/pet/42") {
      return json({ id: 42, name: "doggie", photoUrls: [], status: "available" });
    }
    if (req.method === "GET" && path === "/v2/pet/findByStatus") {
      return json(req.url.searchParams.getAll("status").map((status) => ({ id: 1, status })));
    }
    return json({ message: `no pet at ${path} (key ${req.headers.get("api_key")})` }, 404);
  });
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-openapi-e2e-" });
  const config = join(dir, "magi-tools.jsonc");
  await Deno.mkdir(join(dir, "tools"));
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      openapi: {
        petstore: {
          spec: await oasExample("3.0/yaml/petstore.yaml"),
          baseUrl: new URL("/v2", server.url).href,
          auth: { header: "api_key", valueFromEnv: "PETSTORE_KEY" },
          include: ["getPetById", "findPetsByStatus", "addPet"],
          ...entry,
        },
      },
    }),
  );
  return {
    server,
    config,
    tools: join(dir, "tools"),
    async close() {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("run: OpenAPI tools from magi-tools.jsonc are called through the reference backend", async () => {
  const env = await setup();
  try {
    const prompt = 'getPetById {"petId":42} then findPetsByStatus {"status":["sold","pending"]} ' +
      'then getPetById {"petId":404} then addPet {"body":{"name":"rex","photoUrls":[]}}';
    const result = await runCli(
      ["run", "--config", env.config, "--tools", env.tools, prompt],
      { env: { PETSTORE_KEY: KEY } },
    );
    assert.equal(result.code, 0, result.stderr);
    const ready = one(result.records, "host.ready");
    assert.deepEqual(
      (ready["tools"] as { name: string; effect: string; source: string; source_name: string }[])
        .map((t) => [t.name, t.effect, t.source, t.source_name]),
      [
        ["addPet", "write", "openapi", "petstore"],
        ["findPetsByStatus", "read", "openapi", "petstore"],
        ["getPetById", "read", "openapi", "petstore"],
      ],
    );
    const results = ofType(result.records, "tool.result").map((
      r,
    ) => [r["name"], r["outcome"], r["error_code"] ?? null]);
    assert.deepEqual(
      results.sort(),
      [
        ["findPetsByStatus", "success", null],
        ["getPetById", "error", "http_404"],
        ["getPetById", "success", null],
      ].sort(),
    );
    const message = String(one(result.records, "message")["text"]);
    assert.match(message, /getPetById → \{"id":42,"name":"doggie"/);
    assert.match(
      message,
      /findPetsByStatus → \[\{"id":1,"status":"sold"\},\{"id":1,"status":"pending"\}\]/,
    );
    assert.match(
      message,
      /HTTP 404 Not Found: \{"message":"no pet at \/v2\/pet\/404 \(key \[redacted\]\)"\}/,
    );
    assert.match(message, /addPet → denied/);
    assert.equal(env.server.seen.filter((r) => r.method === "POST").length, 0);
    assert.ok(!result.stdout.includes(KEY) && !result.stderr.includes(KEY));
  } finally {
    await env.close();
  }
});

Deno.test("tools: lists the generated tools with their costs; --json is the exact definitions", async () => {
  const env = await setup();
  try {
    const listing = await runCli(["tools", "--config", env.config, "--tools", env.tools], {
      raw: true,
      env: { PETSTORE_KEY: KEY },
    });
    assert.equal(listing.code, 0, listing.stderr);
    assert.match(listing.stdout, /^getPetById\tread\t\d+ bytes\t.*\texternal \(openapi/m);
    assert.match(listing.stdout, /^addPet\twrite\t\d+ bytes\t/m);
    assert.match(
      listing.stdout,
      /^3 tool\(s\); initialize request \d+ of 65536 bytes; \d+ bytes left$/m,
    );
    const defs = await runCli(["tools", "--config", env.config, "--tools", env.tools, "--json"], {
      raw: true,
      env: { PETSTORE_KEY: KEY },
    });
    assert.equal(defs.code, 0, defs.stderr);
    const definitions = JSON.parse(defs.stdout) as { name: string; input_schema: unknown }[];
    const get = definitions.find((d) => d.name === "getPetById")!;
    assert.deepEqual((get.input_schema as { required: string[] }).required, ["petId"]);
    assert.ok(!defs.stdout.includes(KEY) && !listing.stdout.includes(KEY));
  } finally {
    await env.close();
  }
});

Deno.test("run and tools: an OpenAPI-only project needs no ./tools (magi-tools.jsonc in the working directory)", async () => {
  const env = await setup();
  try {
    await Deno.remove(env.tools);
    const cwd = dirname(env.config);
    // Its auth reads PETSTORE_KEY, so the project config needs approval: as CI gives it.
    const approved = { PETSTORE_KEY: KEY, MAGI_TOOLS_TRUST_CONFIG: "1" };
    const listing = await runCli(["tools"], { cwd, raw: true, env: approved });
    assert.equal(listing.code, 0, listing.stderr);
    assert.match(listing.stdout, /^3 tool\(s\); initialize request /m);
    const result = await runCli(["run", 'getPetById {"petId":42}'], { cwd, env: approved });
    assert.equal(result.code, 0, result.stderr);
    const ready = one(result.records, "host.ready")["tools"] as { source: string }[];
    assert.deepEqual([...new Set(ready.map((tool) => tool.source))], ["openapi"]);
    assert.deepEqual(
      ofType(result.records, "tool.result").map((r) => [r["name"], r["outcome"]]),
      [["getPetById", "success"]],
    );
  } finally {
    await env.close();
  }
});

Deno.test("run and tools exit 2 naming the config key or the document pointer at fault", async () => {
  const env = await setup({ include: ["getPetById", "getPetByName"] });
  try {
    const result = await runCli(["tools", "--config", env.config, "--tools", env.tools], {
      raw: true,
    });
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /magi-tools\.jsonc: openapi\.petstore\.include\[1\]: "getPetByName" matches no operation/,
    );
  } finally {
    await env.close();
  }
  const broken = await setup();
  try {
    const spec = join(broken.tools, "..", "broken.yaml");
    await Deno.writeTextFile(
      spec,
      'openapi: 3.1.0\npaths:\n  /a:\n    get:\n      operationId: a\n      parameters: [{ $ref: "#/components/parameters/Nope" }]\n',
    );
    const config = JSON.parse(await Deno.readTextFile(broken.config));
    config.openapi.petstore = { spec: "broken.yaml", baseUrl: "http://127.0.0.1:9/" };
    await Deno.writeTextFile(broken.config, JSON.stringify(config));
    const result = await runCli(
      ["run", "--config", broken.config, "--tools", broken.tools, "hello"],
      { raw: true },
    );
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /broken\.yaml: #\/paths\/~1a\/get\/parameters\/0\/\$ref: unresolved \$ref: #\/components\/parameters\/Nope/,
    );
  } finally {
    await broken.close();
  }
});

Deno.test("tools: an operation an include glob matches but cannot map is a warning, not an error", async () => {
  const env = await setup({ include: ["pet/**"] });
  try {
    const result = await runCli(["tools", "--config", env.config, "--tools", env.tools], {
      raw: true,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /warning: .*petstore\.yaml: #\/paths\/~1pet~1\{petId\}~1uploadImage\/post\/requestBody: request body media type multipart\/form-data is not supported.*; the operation has no tool/,
    );
    assert.match(result.stdout, /^getPetById\tread\t/m);
    assert.doesNotMatch(result.stdout, /^uploadFile\t/m);
  } finally {
    await env.close();
  }
});

async function runWithFlags(envFlag: string, config: string, tools: string, home: string) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...FULL_CLI,
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      envFlag,
      "--allow-run",
      `${ROOT}cli.ts`,
      "run",
      "--config",
      config,
      "--tools",
      tools,
      'getPetById {"petId":42}',
    ],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1", MC_HOME: home, MAGI_CODE_AGENT: REFERENCE_AGENT, PETSTORE_KEY: KEY },
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  assert.ok(!stdout.includes(KEY));
  const records = stdout.trim().split("\n").map((line) => JSON.parse(line));
  return Object.assign(records, { stderr: new TextDecoder().decode(output.stderr) });
}

Deno.test("run under the start task's flags: the auth variable must be added to --allow-env, and then the call works", async () => {
  const env = await setup();
  const home = await Deno.makeTempDir({ prefix: "magi-tools-e2e-" });
  try {
    const denied = await runWithFlags(
      "--allow-env=MAGI_CODE_AGENT,PATH",
      env.config,
      env.tools,
      home,
    );
    assert.equal(denied.find((r) => r.type === "tool.result").error_code, "tool_failed");
    assert.match(
      denied.find((r) => r.type === "message").text,
      /may not read environment variable PETSTORE_KEY \(start it with --allow-env=…,PETSTORE_KEY\)/,
    );
    assert.equal(env.server.seen.length, 0);
    const allowed = await runWithFlags(
      "--allow-env=MAGI_CODE_AGENT,PATH,PETSTORE_KEY",
      env.config,
      env.tools,
      home,
    );
    assert.equal(
      allowed.find((r) => r.type === "tool.result").outcome,
      "success",
      `${JSON.stringify(allowed)}\n${allowed.stderr}`,
    );
    assert.match(allowed.find((r) => r.type === "message").text, /getPetById → \{"id":42,/);
    assert.equal(env.server.seen.length, 1);
  } finally {
    await Deno.remove(home, { recursive: true });
    await env.close();
  }
});

Deno.test("tools: an operation over a client.tools bound is exit 2 naming the tool, the bound and the OpenAPI fix", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-openapi-e2e-" });
  try {
    const properties = Object.fromEntries(
      Array.from(
        { length: 200 },
        (_, i) => [`field_${i}`, { type: "string", description: "x".repeat(150) }],
      ),
    );
    await Deno.writeTextFile(
      join(dir, "big.json"),
      JSON.stringify({
        openapi: "3.1.0",
        servers: [{ url: "http://127.0.0.1:9/" }],
        paths: {
          "/big": {
            post: {
              operationId: "createBig",
              requestBody: {
                required: true,
                content: { "application/json": { schema: { type: "object", properties } } },
              },
              responses: {},
            },
          },
        },
      }),
    );
    await Deno.writeTextFile(
      join(dir, "magi-tools.jsonc"),
      '{"openapi":{"big":{"spec":"big.json"}}}',
    );
    await Deno.mkdir(join(dir, "tools"));
    const result = await runCli(
      ["tools", "--config", join(dir, "magi-tools.jsonc"), "--tools", join(dir, "tools")],
      { raw: true },
    );
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /Tool input schema is too large: createBig \(openapi:big\): \d+ bytes exceeds the limit of 16384; fix: leave the operation out of the API's "include"/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mcp: the OpenAPI tools are served to an MCP client through the same executor", async () => {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const env = await setup();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      ...FULL_CLI,
      "-A",
      `${ROOT}cli.ts`,
      "mcp",
      "--config",
      env.config,
      "--tools",
      env.tools,
    ],
    cwd: ROOT,
    env: { PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1", PETSTORE_KEY: KEY },
    stderr: "pipe",
  });
  const client = new Client({ name: "openapi-test", version: "1.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools() as {
      tools: { name: string; annotations?: { readOnlyHint?: boolean } }[];
    };
    assert.deepEqual(tools.map((t) => [t.name, t.annotations?.readOnlyHint]).sort(), [
      ["addPet", false],
      ["findPetsByStatus", true],
      ["getPetById", true],
    ]);
    const found = await client.callTool({ name: "getPetById", arguments: { petId: 42 } }) as {
      content: { type: string; text?: string }[];
      isError?: boolean;
    };
    assert.equal(found.isError, undefined);
    assert.match(found.content[0]!.text!, /^\{"id":42,"name":"doggie"/);
    const missing = await client.callTool({ name: "getPetById", arguments: { petId: 7 } }) as {
      content: { type: string; text?: string }[];
      isError?: boolean;
    };
    assert.equal(missing.isError, true);
    assert.match(missing.content[0]!.text!, /HTTP 404 Not Found: .*\(key \[redacted\]\)/);
  } finally {
    await client.close();
    await env.close();
  }
});
