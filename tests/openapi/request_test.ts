import assert from "node:assert/strict";
import { ExternalToolError } from "../../src/tool/external.ts";
import type { ParameterPlan } from "../../src/openapi/operations.ts";
import { buildRequest, isUnderBase } from "../../src/openapi/request.ts";
import { toJsonSchema } from "../../src/openapi/schema.ts";

const BASE = new URL("http://127.0.0.1:8080/api/");

function query(param: Omit<ParameterPlan, "in" | "json">, value: unknown): string {
  const plan = {
    method: "get" as const,
    path: "/q",
    parameters: [{ ...param, in: "query" as const, json: false }],
  };
  return new URL(buildRequest(plan, { [param.name]: value }, BASE).url).search;
}

Deno.test("buildRequest() serializes query parameters by style and explode", () => {
  const cases: [string, boolean, unknown, string][] = [
    ["form", true, ["a", "b c"], "?v=a&v=b%20c"],
    ["form", false, ["a", "b"], "?v=a,b"],
    ["spaceDelimited", false, ["a", "b"], "?v=a%20b"],
    ["pipeDelimited", false, ["a", "b"], "?v=a%7Cb"],
    ["form", true, { x: 1, y: "&" }, "?x=1&y=%26"],
    ["form", false, { x: 1, y: 2 }, "?v=x,1,y,2"],
    ["deepObject", true, { x: 1 }, "?v%5Bx%5D=1"],
    ["form", true, "a=b&c", "?v=a%3Db%26c"],
    ["form", true, true, "?v=true"],
  ];
  for (const [style, explode, value, expected] of cases) {
    assert.equal(query({ name: "v", style, explode }, value), expected, `${style} ${explode}`);
  }
});

Deno.test("buildRequest() encodes path parameters (simple, label, matrix) and stays under the base path", () => {
  const plan = (style: string, explode = false) => ({
    method: "get" as const,
    path: "/items/{id}",
    parameters: [{ name: "id", in: "path" as const, style, explode, json: false }],
  });
  const url = (style: string, value: unknown, explode = false) =>
    buildRequest(plan(style, explode), { id: value }, BASE).url;
  assert.equal(url("simple", "a/b?c#d"), "http://127.0.0.1:8080/api/items/a%2Fb%3Fc%23d");
  assert.equal(url("simple", [1, 2]), "http://127.0.0.1:8080/api/items/1,2");
  assert.equal(url("label", "x"), "http://127.0.0.1:8080/api/items/.x");
  assert.equal(url("matrix", "x"), "http://127.0.0.1:8080/api/items/;id=x");
  assert.equal(url("simple", "%2e%2e"), "http://127.0.0.1:8080/api/items/%252e%252e");
  assert.equal(url("simple", "user:42"), "http://127.0.0.1:8080/api/items/user%3A42");
  for (const bad of ["", ".", "..", "http://x", "HTTPS://x", "//x", "\\\\x\\y"]) {
    assert.throws(() => url("simple", bad), (error: unknown) => {
      assert.ok(error instanceof ExternalToolError);
      assert.equal(error.code, "invalid_arguments");
      return true;
    }, bad);
  }
});

Deno.test("buildRequest() refuses header values with line breaks and encodes bodies by media type", () => {
  const plan = {
    method: "post" as const,
    path: "/h",
    parameters: [{
      name: "X-Trace",
      in: "header" as const,
      style: "simple",
      explode: false,
      json: false,
    }],
    body: { mediaType: "application/json", kind: "json" as const },
  };
  const request = buildRequest(plan, { "X-Trace": "t1", body: { a: [1] } }, BASE);
  assert.deepEqual(request.headers, [["X-Trace", "t1"], ["content-type", "application/json"]]);
  assert.equal(request.body, '{"a":[1]}');
  assert.equal(request.method, "POST");
  assert.throws(() => buildRequest(plan, { "X-Trace": "a\r\nInjected: 1" }, BASE), /CR, LF or NUL/);
});

Deno.test("isUnderBase() requires the same origin and the base path as a prefix", () => {
  const base = new URL("http://127.0.0.1:8080/api");
  assert.equal(isUnderBase(new URL("http://127.0.0.1:8080/api/x"), base), true);
  assert.equal(isUnderBase(new URL("http://127.0.0.1:8080/api"), base), true);
  assert.equal(isUnderBase(new URL("http://127.0.0.1:8080/apix"), base), false);
  assert.equal(isUnderBase(new URL("http://127.0.0.1:8080/x/../api/y"), base), true);
  assert.equal(isUnderBase(new URL("http://127.0.0.1:8080/api/../admin"), base), false);
  assert.equal(isUnderBase(new URL("http://127.0.0.1:8081/api/x"), base), false);
  assert.equal(isUnderBase(new URL("https://127.0.0.1:8080/api/x"), base), false);
});

Deno.test("toJsonSchema() turns the 3.0 dialect into JSON Schema and drops documentation keywords", () => {
  assert.deepEqual(
    toJsonSchema({
      type: "object",
      properties: {
        id: { type: "integer", readOnly: true },
        name: { type: "string", nullable: true, example: "rex", "x-internal": 1 },
        kind: { type: "string", enum: ["a"], nullable: true },
        age: { type: "number", minimum: 0, exclusiveMinimum: true },
      },
      required: ["id", "name"],
      xml: { name: "Pet" },
    }, { version: "3.0", dropReadOnly: true }),
    {
      type: "object",
      properties: {
        name: { type: ["string", "null"] },
        kind: { type: ["string", "null"], enum: ["a", null] },
        age: { type: "number", exclusiveMinimum: 0 },
      },
      required: ["name"],
    },
  );
  // A recursion point left as $ref by the resolver becomes "any value".
  assert.deepEqual(
    toJsonSchema({ type: "object", properties: { next: { $ref: "#/x" } } }, { version: "3.1" }),
    {
      type: "object",
      properties: { next: {} },
    },
  );
});
