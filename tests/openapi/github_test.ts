/**
 * A slice of GitHub's REST description (OpenAPI 3.0.3, 13 MB, 800+
 * operations, from the pinned npm package `@octokit/openapi`) as tools:
 * `include` selects three operations, only what they reference is resolved,
 * and the tools run against a loopback server with a bearer token.
 */

import assert from "node:assert/strict";
import { ExternalToolError } from "../../src/tool/external.ts";
import {
  loadOpenApiTools,
  OpenApiError,
  type OpenApiTools,
  parseOpenApiSection,
} from "../../src/openapi/mod.ts";
import { context, json, type LoopbackServer, octokitFile, serve } from "./_fixtures.ts";

const TOKEN_ENV = "MAGI_TEST_GITHUB_TOKEN";
const TOKEN = "ghp_testTOKEN0123456789";

function githubServer(): LoopbackServer {
  return serve((req) => {
    const path = req.url.pathname;
    if (path.endsWith("/issues/401")) {
      return json({ message: `Bad credentials: ${req.headers.get("authorization")}` }, 401);
    }
    if (req.method === "GET" && /^\/api\/repos\/[^/]+\/[^/]+\/issues\/\d+$/.test(path)) {
      return json({ number: Number(path.split("/").at(-1)), title: "Found a bug", state: "open" });
    }
    if (req.method === "GET" && path.endsWith("/issues")) {
      return json([{ number: 1, query: Object.fromEntries(req.url.searchParams) }]);
    }
    if (req.method === "POST" && path.endsWith("/issues")) {
      return json({ number: 2, ...JSON.parse(req.body) }, 201);
    }
    return json({ message: "Not Found" }, 404);
  });
}

async function load(server: LoopbackServer, entry: Record<string, unknown> = {}) {
  const apis = parseOpenApiSection({
    github: {
      spec: await octokitFile("generated/api.github.com.json"),
      baseUrl: new URL("/api", server.url).href,
      auth: { header: "Authorization", valueFromEnv: TOKEN_ENV, prefix: "Bearer " },
      include: ["issues/get", "issues/list-for-repo", "issues/create"],
      ...entry,
    },
  }, "/tmp/magi-tools.jsonc");
  return await loadOpenApiTools(apis);
}

function tool(source: OpenApiTools, name: string) {
  const found = source.tools.find((t) => t.name === name);
  assert.ok(found, `no tool ${name}: ${source.tools.map((t) => t.name).join(", ")}`);
  return found;
}

Deno.test("GitHub REST slice: operationIds with a slash become tool names; schemas fit the client.tools bounds", async () => {
  const server = githubServer();
  const source = await load(server);
  try {
    assert.deepEqual(source.tools.map((t) => [t.name, t.effect]), [
      ["issues_list-for-repo", "read"],
      ["issues_create", "write"],
      ["issues_get", "read"],
    ]);
    for (const t of source.tools) {
      const bytes = new TextEncoder().encode(JSON.stringify(t.inputSchema)).length;
      assert.ok(bytes <= 16_384, `${t.name}: input_schema is ${bytes} bytes`);
      assert.ok(new TextEncoder().encode(t.description).length <= 1_024);
      assert.ok(!JSON.stringify(t.inputSchema).includes("$ref"));
    }
    const create = tool(source, "issues_create");
    assert.deepEqual(create.inputSchema["required"], ["owner", "repo", "body"]);
    const body = (create.inputSchema["properties"] as Record<string, Record<string, unknown>>)
      .body!;
    assert.deepEqual(body["required"], ["title"]);
    assert.equal(
      source.plans.get("issues_get")?.path,
      "/repos/{owner}/{repo}/issues/{issue_number}",
    );
  } finally {
    await source.close();
    await server.close();
  }
});

Deno.test("GitHub REST slice: calls carry path, query and body, and the bearer token never comes back", async () => {
  const server = githubServer();
  Deno.env.set(TOKEN_ENV, TOKEN);
  const source = await load(server);
  try {
    const issue = await tool(source, "issues_get").run(
      { owner: "octo org", repo: "hello-world", issue_number: 1347 },
      context(),
    );
    assert.deepEqual(JSON.parse(String(issue)), {
      number: 1347,
      title: "Found a bug",
      state: "open",
    });
    assert.equal(server.seen.at(-1)!.url.pathname, "/api/repos/octo%20org/hello-world/issues/1347");
    assert.equal(server.seen.at(-1)!.headers.get("authorization"), `Bearer ${TOKEN}`);

    const list = await tool(source, "issues_list-for-repo").run(
      { owner: "o", repo: "r", state: "closed", labels: "bug,ui", per_page: 5 },
      context(),
    );
    assert.deepEqual(JSON.parse(String(list))[0].query, {
      state: "closed",
      labels: "bug,ui",
      per_page: "5",
    });

    const created = await tool(source, "issues_create").run(
      { owner: "o", repo: "r", body: { title: "New", labels: ["bug"] } },
      context(),
    );
    assert.deepEqual(JSON.parse(String(created)), { number: 2, title: "New", labels: ["bug"] });

    const denied = tool(source, "issues_get").run(
      { owner: "o", repo: "r", issue_number: 401 },
      context(),
    );
    await assert.rejects(denied, (error: ExternalToolError) => {
      assert.equal(error.code, "http_401");
      assert.equal(
        error.message,
        'HTTP 401 Unauthorized: {"message":"Bad credentials: Bearer [redacted]"}',
      );
      return true;
    });
  } finally {
    Deno.env.delete(TOKEN_ENV);
    await source.close();
    await server.close();
  }
});

Deno.test("GitHub REST slice: a path parameter cannot leave the base URL", async () => {
  const server = githubServer();
  Deno.env.set(TOKEN_ENV, TOKEN);
  const source = await load(server);
  try {
    const get = tool(source, "issues_get");
    for (
      const [owner, why] of [
        ["..", 'cannot be ".."'],
        [".", 'cannot be "."'],
        ["https://evil.example", "cannot be an absolute URL"],
        ["//evil.example", "cannot be an absolute URL"],
      ] as const
    ) {
      await assert.rejects(get.run({ owner, repo: "r", issue_number: 1 }, context()), (error) => {
        assert.ok(error instanceof ExternalToolError);
        assert.equal(error.code, "invalid_arguments");
        assert.ok(error.message.includes(`owner: a path parameter ${why}`), error.message);
        return true;
      });
    }
    // A slash or dots inside a value stay inside its segment.
    await get.run({ owner: "../../admin", repo: "r", issue_number: 3 }, context());
    assert.equal(server.seen.at(-1)!.url.pathname, "/api/repos/..%2F..%2Fadmin/r/issues/3");
  } finally {
    Deno.env.delete(TOKEN_ENV);
    await source.close();
    await server.close();
  }
});

Deno.test("GitHub REST description without include: over the 1,000-tool bound, named at the config key", async () => {
  const server = githubServer();
  try {
    await assert.rejects(load(server, { include: undefined }), (error) => {
      assert.ok(error instanceof OpenApiError);
      assert.equal(error.file, "/tmp/magi-tools.jsonc");
      assert.equal(error.at, "openapi.github");
      assert.match(error.reason, /^\d{3,} operations selected, at most 1000 tools/);
      return true;
    });
  } finally {
    await server.close();
  }
});
