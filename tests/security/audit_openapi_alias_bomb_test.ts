/**
 * Audit (issue 31 item 1, follow-up): an OpenAPI document of a project config (no approval
 * needed) can hold a YAML alias "billion laughs": each anchor refers to the previous one four
 * times. The 16 KiB input-schema limit is checked only after the schema is expanded in full, so
 * a 1.6 KB document makes `tools` spend ~20 s and ~2 GB (depth 8 on 998e5da) and one or two more
 * levels exhaust memory; internal `$ref`s of a JSON document do the same. Must hold: such a
 * document is refused (exit 2, naming the operation), without expanding it. Fails on 998e5da
 * (the CLI is killed; it spins for good at depth 12).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, tempDir } from "./_scopes.ts";

function bomb(depth: number): string {
  const lines = ['openapi: "3.0.3"', 'info: { title: t, version: "1" }', "x:"];
  lines.push('  a0: &a0 {type: string, description: "lollollollollollollollollollol"}');
  for (let i = 1; i <= depth; i++) {
    const p = `*a${i - 1}`;
    lines.push(
      `  a${i}: &a${i} {type: object, properties: {p1: ${p}, p2: ${p}, p3: ${p}, p4: ${p}}}`,
    );
  }
  lines.push(
    "paths:",
    "  /a:",
    "    post:",
    "      operationId: a",
    "      requestBody:",
    "        content:",
    "          application/json:",
    `            schema: *a${depth}`,
    '      responses: { "200": { description: ok } }',
  );
  return `${lines.join("\n")}\n`;
}

Deno.test("audit: a YAML alias bomb in a project's OpenAPI document is refused quickly", async () => {
  const tmp = await tempDir("magi-tools-audit-bomb-");
  try {
    await Deno.writeTextFile(join(tmp.path, "spec.yaml"), bomb(8));
    await Deno.writeTextFile(
      join(tmp.path, "magi-tools.jsonc"),
      JSON.stringify({ openapi: { t: { spec: "spec.yaml", baseUrl: "http://127.0.0.1:9/api" } } }),
    );
    // The kill is a hang guard (a 2-core machine under load), not a speed assertion.
    const run = await cli(["tools", "--json"], { cwd: tmp.path, killAfterMs: 60_000 });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /spec\.yaml: #\/paths\/~1a\/post: the operation is too large/);
  } finally {
    await tmp.remove();
  }
});

/** The same with internal `$ref`s of plain JSON: `#/components/schemas/aN` refers to `aN-1`. */
function refBomb(depth: number): string {
  const schemas: Record<string, unknown> = {
    a0: { type: "string", description: "lollollollollollollollollollol" },
  };
  for (let i = 1; i <= depth; i++) {
    const ref = { $ref: `#/components/schemas/a${i - 1}` };
    schemas[`a${i}`] = { type: "object", properties: { p1: ref, p2: ref, p3: ref, p4: ref } };
  }
  const body = {
    content: { "application/json": { schema: { $ref: `#/components/schemas/a${depth}` } } },
  };
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    components: { schemas },
    paths: {
      "/a": {
        post: { operationId: "a", requestBody: body, responses: { "200": { description: "ok" } } },
      },
    },
  });
}

Deno.test("audit: a $ref bomb in a project's JSON OpenAPI document is refused quickly", async () => {
  const tmp = await tempDir("magi-tools-audit-bomb-");
  try {
    await Deno.writeTextFile(join(tmp.path, "spec.json"), refBomb(12));
    await Deno.writeTextFile(
      join(tmp.path, "magi-tools.jsonc"),
      JSON.stringify({ openapi: { t: { spec: "spec.json", baseUrl: "http://127.0.0.1:9/api" } } }),
    );
    const run = await cli(["tools", "--json"], { cwd: tmp.path, killAfterMs: 60_000 });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /spec\.json: #\/paths\/~1a\/post: the operation is too large/);
  } finally {
    await tmp.remove();
  }
});

Deno.test("audit: a $ref bomb across files of the document's directory is refused quickly", async () => {
  const tmp = await tempDir("magi-tools-audit-bomb-");
  try {
    // A directory name with a space: the counted $refs are found as the parser read them.
    const dir = join(tmp.path, "api specs");
    await Deno.mkdir(join(dir, "parts"), { recursive: true });
    // parts/a.json#/aN refers four times to parts/b.json#/bN-1, which refers to a.json#/aN-1.
    const a: Record<string, unknown> = { a0: { type: "string" } };
    const b: Record<string, unknown> = {};
    for (let i = 1; i <= 12; i++) {
      const ref = { $ref: `b.json#/b${i - 1}` };
      a[`a${i}`] = { type: "object", properties: { p1: ref, p2: ref, p3: ref, p4: ref } };
      b[`b${i - 1}`] = { $ref: `a.json#/a${i - 1}` };
    }
    await Deno.writeTextFile(join(dir, "parts", "a.json"), JSON.stringify(a));
    await Deno.writeTextFile(join(dir, "parts", "b.json"), JSON.stringify(b));
    const schema = { $ref: "#/components/schemas/Big" };
    await Deno.writeTextFile(
      join(dir, "spec.json"),
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "t", version: "1" },
        components: { schemas: { Big: { $ref: "parts/a.json#/a12" } } },
        paths: {
          "/a": {
            post: {
              operationId: "a",
              requestBody: { content: { "application/json": { schema } } },
              responses: { "200": { description: "ok" } },
            },
          },
        },
      }),
    );
    await Deno.writeTextFile(
      join(tmp.path, "magi-tools.jsonc"),
      JSON.stringify({
        openapi: { t: { spec: "api specs/spec.json", baseUrl: "http://127.0.0.1:9/api" } },
      }),
    );
    const run = await cli(["tools", "--json"], { cwd: tmp.path, killAfterMs: 60_000 });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /spec\.json: #\/paths\/~1a\/post: the operation is too large/);
  } finally {
    await tmp.remove();
  }
});
