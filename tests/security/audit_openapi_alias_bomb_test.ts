/**
 * Audit (issue 31 item 1, follow-up): an OpenAPI document of a project config (no approval
 * needed) can hold a YAML alias "billion laughs": each anchor refers to the previous one four
 * times. The 16 KiB input-schema limit is checked only after the schema is expanded in full, so
 * a 1.6 KB document makes `tools` spend ~20 s and ~2 GB (depth 8 on 998e5da) and one or two more
 * levels exhaust memory. Must hold: such a document is refused quickly (exit 2), without
 * expanding it. Fails on 998e5da (the CLI is killed after 8 s).
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
    const run = await cli(["tools", "--json"], { cwd: tmp.path, killAfterMs: 8_000 });
    assert.equal(run.code, 2, run.stderr);
  } finally {
    await tmp.remove();
  }
});
