/** Loading errors name the file, the JSON pointer and the reason; OpenAPI 3.1 loads. */

import assert from "node:assert/strict";
import { join } from "node:path";
import { loadOpenApiTools, OpenApiError, parseOpenApiSection } from "../../src/openapi/mod.ts";
import { oasExample } from "./_fixtures.ts";

async function loadText(
  text: string,
  entry: Record<string, unknown> = {},
  name = "spec.yaml",
): Promise<OpenApiError> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, name), text);
    const apis = parseOpenApiSection(
      { api: { spec: name, ...entry } },
      join(dir, "magi-tools.jsonc"),
    );
    const source = await loadOpenApiTools(apis);
    await source.close();
  } catch (error) {
    assert.ok(error instanceof OpenApiError, String(error));
    return error;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.fail("the document loaded");
}

const OK_OP = `
    get:
      operationId: getThing
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses: { "200": { description: ok } }`;

Deno.test("a document that does not parse is named with # and the parser's reason", async () => {
  const error = await loadText("openapi: 3.0.3\npaths: [unclosed\n");
  assert.match(error.file, /\/spec\.yaml$/);
  assert.equal(error.at, "#");
  assert.match(error.reason, /^does not parse as JSON or YAML: .*\(3:1\)$/);
  const json = await loadText('{"openapi": "3.1.0",}', {}, "spec.json");
  assert.match(json.message, /\/spec\.json: #: does not parse as JSON or YAML: /);
});

Deno.test("a JSON document with a byte order mark loads", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      join(dir, "spec.json"),
      '\uFEFF{"openapi":"3.1.0","paths":{"/a":{"get":{"operationId":"getA","responses":{}}}}}',
    );
    const apis = parseOpenApiSection(
      { api: { spec: "spec.json", baseUrl: "http://127.0.0.1:9/" } },
      join(dir, "magi-tools.jsonc"),
    );
    const source = await loadOpenApiTools(apis);
    assert.deepEqual(source.tools.map((t) => t.name), ["getA"]);
    await source.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a missing file, a Swagger 2.0 document and an unsupported version are named", async () => {
  const dir = await Deno.makeTempDir();
  const apis = parseOpenApiSection({ api: { spec: "nope.yaml" } }, join(dir, "magi-tools.jsonc"));
  await assert.rejects(loadOpenApiTools(apis), (error: Error) => {
    assert.equal(error.message.startsWith(`${join(dir, "nope.yaml")}: cannot be read: `), true);
    return true;
  });
  await Deno.remove(dir);
  const swagger = await loadText('swagger: "2.0"\npaths: {}\n');
  assert.equal(swagger.at, "#/openapi");
  assert.match(swagger.reason, /Swagger 2\.0 is not supported/);
  const unquoted = await loadText("openapi: 3.1\npaths: {}\n");
  assert.equal(unquoted.at, "#/openapi");
  assert.match(unquoted.reason, /must be a string such as "3\.1\.0" \(quote it in YAML\)/);
  const future = await loadText("openapi: 4.0.0\npaths: {}\n");
  assert.match(future.reason, /unsupported version 4\.0\.0 \(3\.0\.x and 3\.1\.x are supported\)/);
});

Deno.test("an unresolved $ref is named by the JSON pointer of the $ref", async () => {
  const error = await loadText(`openapi: 3.0.3
servers: [{ url: "http://127.0.0.1:9/" }]
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - { $ref: "#/components/parameters/Id" }
      responses: { "200": { description: ok } }
components: {}
`);
  assert.equal(error.at, "#/paths/~1things~1{id}/get/parameters/0/$ref");
  assert.match(error.reason, /unresolved \$ref: #\/components\/parameters\/Id does not exist/);
  const external = await loadText(`openapi: 3.0.3
servers: [{ url: "http://127.0.0.1:9/" }]
paths:
  /things:
    post:
      operationId: addThing
      requestBody:
        content:
          application/json:
            schema: { $ref: "missing.yaml#/Thing" }
      responses: { "200": { description: ok } }
`);
  assert.equal(
    external.at,
    "#/paths/~1things/post/requestBody/content/application~1json/schema/$ref",
  );
  assert.match(external.reason, /^unresolved \$ref: /);
});

Deno.test("an include entry that matches nothing, an unknown effects key, a name collision and a relative server are named", async () => {
  const doc = `openapi: 3.0.3
servers: [{ url: "http://127.0.0.1:9/v1" }]
paths:
  /things/{id}:${OK_OP}
`;
  const include = await loadText(doc, { include: ["getThing", "listThings"] });
  assert.equal(include.file.endsWith("magi-tools.jsonc"), true);
  assert.equal(include.at, "openapi.api.include[1]");
  assert.match(include.reason, /"listThings" matches no operation/);
  const effects = await loadText(doc, { effects: { deleteThing: "read" } });
  assert.equal(effects.at, "openapi.api.effects.deleteThing");
  const collision = await loadText(`openapi: 3.0.3
servers: [{ url: "http://127.0.0.1:9/v1" }]
paths:
  /a/{id}:${OK_OP}
  /b/{id}:${OK_OP}
`);
  assert.equal(collision.at, "#/paths/~1b~1{id}/get");
  assert.match(
    collision.reason,
    /tool name getThing collides with \S*spec\.yaml #\/paths\/~1a~1\{id\}\/get/,
  );
  const relative = await loadText(`openapi: 3.0.3
servers: [{ url: "/v1" }]
paths:
  /things/{id}:${OK_OP}
`);
  assert.equal(relative.at, "#/servers/0/url");
  assert.match(relative.reason, /set openapi\.api\.baseUrl/);
});

Deno.test("OpenAPI 3.1 (the Train Travel API) loads: every tool has a self-contained object schema", async () => {
  const apis = parseOpenApiSection({
    train: { spec: await oasExample("3.1/yaml/train-travel.yaml") },
  }, "/tmp/magi-tools.jsonc");
  const source = await loadOpenApiTools(apis);
  try {
    assert.ok(source.tools.length >= 5, source.tools.map((t) => t.name).join(", "));
    for (const tool of source.tools) {
      assert.equal(tool.inputSchema["type"], "object");
      assert.ok(!JSON.stringify(tool.inputSchema).includes('"$ref"'), tool.name);
      assert.equal(tool.validate({ definitely_not_a_parameter: 1 }) !== null, true);
    }
    const plan = [...source.plans.values()][0]!;
    assert.match(plan.baseUrl, /^https:\/\//);
  } finally {
    await source.close();
  }
});
