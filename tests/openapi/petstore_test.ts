/**
 * The Swagger Petstore (OpenAPI 3.0, YAML, from the pinned npm package
 * `@readme/oas-examples`) as tools, at the ExternalTool level: `validate` and
 * `run` against a loopback server that implements the included operations.
 * Each exchange runs in the sandboxed HTTP child.
 */

import assert from "node:assert/strict";
import { ExternalToolError } from "../../src/tool/external.ts";
import { loadOpenApiTools, type OpenApiTools, parseOpenApiSection } from "../../src/openapi/mod.ts";
import { context, json, type LoopbackServer, oasExample, serve } from "./_fixtures.ts";

const KEY_ENV = "MAGI_TEST_PETSTORE_KEY";
const SECRET = "pk-5ecret-value-123";

/** Paths of slow requests whose client went away (the exchange was really aborted). */
const clientsGone: string[] = [];

const PET = {
  id: 42,
  name: "doggie",
  photoUrls: ["https://example.test/d.png"],
  status: "available",
};

function petServer(): LoopbackServer {
  return serve(async (req, signal) => {
    const path = req.url.pathname;
    if (req.method === "GET" && path === "/v2/pet/42") return json(PET);
    if (req.method === "GET" && path === "/v2/pet/404") {
      return json({ code: 404, message: `Pet not found (key ${req.headers.get("api_key")})` }, 404);
    }
    if (req.method === "GET" && path === "/v2/pet/findByStatus") {
      return json(
        req.url.searchParams.getAll("status").map((status, id) => ({ ...PET, id, status })),
      );
    }
    if (req.method === "GET" && path === "/v2/pet/findByTags") {
      return json({ tags: req.url.searchParams.getAll("tags") });
    }
    if (req.method === "POST" && path === "/v2/pet") {
      return json({ ...JSON.parse(req.body), id: 7 });
    }
    if (req.method === "POST" && path === "/v2/pet/5") {
      return new Response(`form ${req.headers.get("content-type")} ${req.body}`);
    }
    if (req.method === "DELETE" && path === "/v2/pet/9") return new Response(null, { status: 204 });
    if (path === "/v2/pet/301") {
      return new Response(null, { status: 302, headers: { location: "/v2/pet/42" } });
    }
    if (path === "/v2/pet/302") {
      return new Response(null, {
        status: 302,
        headers: { location: `http://127.0.0.2:${req.url.port}/v2/pet/42` },
      });
    }
    if (path === "/v2/pet/303") {
      return new Response(null, { status: 302, headers: { location: "/elsewhere/pet/42" } });
    }
    if (path === "/v2/pet/1001") {
      // Slow: answers only when the client goes away (or after 20 s).
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 20_000);
        signal().addEventListener("abort", () => {
          clientsGone.push(path);
          clearTimeout(timer);
          resolve(null);
        }, { once: true });
      });
      return json(PET);
    }
    if (path === "/v2/pet/2000") return json({ blob: "x".repeat(2 * 1_048_576) });
    if (path === "/v2/pet/2001") return json({ blob: "y".repeat(300_000) });
    return json({ code: 500, message: "not implemented by the test server" }, 500);
  });
}

async function load(
  server: LoopbackServer,
  entry: Record<string, unknown> = {},
): Promise<OpenApiTools> {
  const spec = await oasExample("3.0/yaml/petstore.yaml");
  const apis = parseOpenApiSection({
    petstore: {
      spec,
      baseUrl: new URL("/v2", server.url).href,
      auth: { header: "api_key", valueFromEnv: KEY_ENV },
      include: [
        "getPetById",
        "findPetsByStatus",
        "findPetsByTags",
        "addPet",
        "deletePet",
        "updatePetWithForm",
      ],
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

async function rejection(promise: Promise<unknown>): Promise<ExternalToolError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ExternalToolError, `not an ExternalToolError: ${error}`);
    return error;
  }
  assert.fail("the call did not fail");
}

Deno.test("Petstore 3.0: included operations become tools with names, effects, descriptions and schemas", async () => {
  const server = petServer();
  const source = await load(server, { effects: { deletePet: "read" } });
  try {
    assert.deepEqual(source.tools.map((t) => [t.name, t.effect]), [
      ["addPet", "write"],
      ["findPetsByStatus", "read"],
      ["findPetsByTags", "read"],
      ["getPetById", "read"],
      ["updatePetWithForm", "write"],
      ["deletePet", "read"],
    ]);
    const get = tool(source, "getPetById");
    assert.equal(get.source.kind, "openapi");
    assert.equal(get.source.name, "petstore");
    assert.equal(get.timeoutMs, 10_000);
    assert.match(get.description, /^GET \/pet\/\{petId\}: Find pet by ID\n\nReturns a single pet/);
    assert.deepEqual(get.inputSchema["required"], ["petId"]);
    assert.equal(get.inputSchema["additionalProperties"], false);
    const petId =
      (get.inputSchema["properties"] as Record<string, Record<string, unknown>>)["petId"];
    assert.equal(petId?.["type"], "integer");
    // The auth header is the config's: deletePet's own api_key header parameter is not an input.
    const del = tool(source, "deletePet");
    assert.deepEqual(Object.keys(del.inputSchema["properties"] as object), ["petId"]);
    // The request body's schema (Pet, via two $refs), readOnly fields and examples dropped.
    const add = tool(source, "addPet");
    const body =
      (add.inputSchema["properties"] as Record<string, Record<string, unknown>>)["body"]!;
    assert.deepEqual(body["required"], ["name", "photoUrls"]);
    assert.ok(!JSON.stringify(body).includes('"example"'));
    assert.deepEqual(add.inputSchema["required"], ["body"]);
  } finally {
    await source.close();
    await server.close();
  }
});

Deno.test("Petstore 3.0: a glob skips an operation it cannot map; naming it exactly is an error", async () => {
  const server = petServer();
  const source = await load(server, { include: ["pet/**"] });
  try {
    assert.ok(source.tools.some((t) => t.name === "getPetById"));
    assert.ok(!source.tools.some((t) => t.name === "uploadFile"));
    assert.equal(source.skipped.length, 1);
    assert.equal(
      source.skipped[0]!.pointer,
      "#/paths/~1pet~1{petId}~1uploadImage/post/requestBody",
    );
    assert.match(source.skipped[0]!.reason, /multipart\/form-data is not supported/);
  } finally {
    await source.close();
  }
  await assert.rejects(load(server, { include: ["uploadFile"] }), (error: Error) => {
    assert.match(
      error.message,
      /petstore\.yaml: #\/paths\/~1pet~1\{petId\}~1uploadImage\/post\/requestBody: request body media type multipart\/form-data/,
    );
    return true;
  });
  await server.close();
});

Deno.test("Petstore 3.0: validate() rejects bad arguments before any request", async () => {
  const server = petServer();
  const source = await load(server);
  try {
    const get = tool(source, "getPetById");
    assert.equal(get.validate({ petId: 42 }), null);
    assert.equal(get.validate({ petId: "42" }), "petId: must be integer");
    assert.equal(get.validate({}), "petId: required");
    assert.equal(
      get.validate({ petId: 1, extra: true }),
      "extra: unknown property",
    );
    const error = await rejection(get.run({ petId: "x" }, context()));
    assert.equal(error.code, "invalid_arguments");
    const status = tool(source, "findPetsByStatus");
    assert.match(
      status.validate({ status: ["lost"] })!,
      /status\[0\]: must be equal to one of the allowed values/,
    );
    assert.equal(server.seen.length, 0);
  } finally {
    await source.close();
    await server.close();
  }
});

Deno.test("Petstore 3.0: run() sends path, query, header and body, with the key read from the environment at call time", async () => {
  const server = petServer();
  Deno.env.delete(KEY_ENV);
  const source = await load(server);
  try {
    const get = tool(source, "getPetById");
    const missing = await rejection(get.run({ petId: 42 }, context()));
    assert.equal(missing.code, "tool_failed");
    assert.match(missing.message, new RegExp(`environment variable ${KEY_ENV} is not set`));
    assert.equal(server.seen.length, 0);

    Deno.env.set(KEY_ENV, "line\r\nInjected: 1");
    const broken = await rejection(get.run({ petId: 42 }, context()));
    assert.equal(broken.code, "tool_failed");
    assert.match(broken.message, new RegExp(`${KEY_ENV} holds CR, LF or NUL$`));
    assert.ok(!broken.message.includes("Injected"));

    Deno.env.set(KEY_ENV, SECRET);
    assert.deepEqual(JSON.parse(String(await get.run({ petId: 42 }, context()))), PET);
    const seen = server.seen.at(-1)!;
    assert.equal(seen.url.pathname, "/v2/pet/42");
    assert.equal(seen.headers.get("api_key"), SECRET);

    const found = await tool(source, "findPetsByStatus").run(
      { status: ["available", "sold"] },
      context(),
    );
    assert.equal(server.seen.at(-1)!.url.search, "?status=available&status=sold");
    assert.deepEqual(JSON.parse(String(found)).map((p: { status: string }) => p.status), [
      "available",
      "sold",
    ]);

    await tool(source, "findPetsByTags").run({ tags: ["a b", "c&d"] }, context());
    assert.equal(server.seen.at(-1)!.url.search, "?tags=a%20b&tags=c%26d");

    const added = await tool(source, "addPet").run(
      { body: { name: "rex", photoUrls: [], status: "pending" } },
      context(),
    );
    assert.deepEqual(JSON.parse(String(added)), {
      name: "rex",
      photoUrls: [],
      status: "pending",
      id: 7,
    });
    assert.equal(server.seen.at(-1)!.headers.get("content-type"), "application/json");

    const form = await tool(source, "updatePetWithForm").run(
      { petId: 5, body: { name: "a b", status: "sold" } },
      context(),
    );
    assert.equal(form, "form application/x-www-form-urlencoded name=a+b&status=sold");

    assert.equal(
      await tool(source, "deletePet").run({ petId: 9 }, context()),
      "HTTP 204 No Content (no content)",
    );
  } finally {
    Deno.env.delete(KEY_ENV);
    await source.close();
    await server.close();
  }
});

Deno.test("Petstore 3.0: a non-2xx status is http_<status> with the status line and a redacted, bounded excerpt", async () => {
  const server = petServer();
  Deno.env.set(KEY_ENV, SECRET);
  const source = await load(server);
  try {
    const error = await rejection(tool(source, "getPetById").run({ petId: 404 }, context()));
    assert.equal(error.code, "http_404");
    assert.match(
      error.message,
      /^HTTP 404 Not Found: \{"code":404,"message":"Pet not found \(key \[redacted\]\)"\}$/,
    );
    assert.ok(!error.message.includes(SECRET));
  } finally {
    Deno.env.delete(KEY_ENV);
    await source.close();
    await server.close();
  }
});

Deno.test("Petstore 3.0: redirects are followed under the base URL only; another host or path is refused unfetched", async () => {
  const server = petServer();
  const other = serve(() => json({ stolen: true }));
  Deno.env.set(KEY_ENV, SECRET);
  const source = await load(server);
  try {
    const get = tool(source, "getPetById");
    assert.deepEqual(JSON.parse(String(await get.run({ petId: 301 }, context()))), PET);
    const away = await rejection(get.run({ petId: 302 }, context()));
    assert.equal(away.code, "http_302");
    assert.match(away.message, /redirected to another host \(refused\): http:\/\/127\.0\.0\.2:/);
    const outside = await rejection(get.run({ petId: 303 }, context()));
    assert.match(outside.message, /redirected to a path outside the base URL \(refused\)/);
    assert.equal(other.seen.length, 0);
  } finally {
    Deno.env.delete(KEY_ENV);
    await source.close();
    await other.close();
    await server.close();
  }
});

Deno.test("Petstore 3.0: ctx.signal aborts a slow request; the tool's timeout answers timeout", async () => {
  const server = petServer();
  Deno.env.set(KEY_ENV, SECRET);
  const source = await load(server, { timeoutMs: 1_000 });
  try {
    const get = tool(source, "getPetById");
    const controller = new AbortController();
    const started = Date.now();
    const call = get.run({ petId: 1001 }, context(controller.signal));
    // Cancel once the request reached the server.
    while (!server.seen.some((r) => r.url.pathname === "/v2/pet/1001")) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    controller.abort(new DOMException("Tool call cancelled", "AbortError"));
    await assert.rejects(call, (error: Error) => error.name === "AbortError");
    assert.ok(Date.now() - started < 5_000);
    // The request itself was aborted in the sandboxed child, not left running.
    for (let i = 0; i < 100 && clientsGone.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.deepEqual(clientsGone, ["/v2/pet/1001"]);

    const slow = await rejection(get.run({ petId: 1001 }, context()));
    assert.equal(slow.code, "timeout");
    assert.equal(slow.message, "No complete response within 1000 ms");
  } finally {
    Deno.env.delete(KEY_ENV);
    await source.close();
    await server.close();
  }
});

Deno.test("Petstore 3.0: a response over the bound is result_too_large; a large one under it comes back whole", async () => {
  const server = petServer();
  Deno.env.set(KEY_ENV, SECRET);
  const source = await load(server);
  try {
    const get = tool(source, "getPetById");
    const big = await rejection(get.run({ petId: 2000 }, context()));
    assert.equal(big.code, "result_too_large");
    assert.match(big.message, /larger than 1048576 bytes/);
    const text = String(await get.run({ petId: 2001 }, context()));
    assert.equal(text.length, JSON.stringify({ blob: "y".repeat(300_000) }).length);
  } finally {
    Deno.env.delete(KEY_ENV);
    await source.close();
    await server.close();
  }
});
