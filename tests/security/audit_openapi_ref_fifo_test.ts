/**
 * Audit (issue 31 item 1, follow-up): a `$ref` to a file inside the document's own directory is
 * read with `readFile` after the containment checks, with no check that it is a regular file and
 * no time limit: a FIFO there (an unpacked archive, a checkout made by a script) makes `tools`
 * (and `run`, `batch`, `mcp`) hang for good with no approval asked. Must hold: a `$ref` to
 * anything but a regular file is refused (exit 2). Fails on 998e5da (killed after 15 s).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { cli, tempDir } from "./_scopes.ts";

Deno.test("audit: a $ref to a FIFO in the document's directory is refused, not read forever", async () => {
  const tmp = await tempDir("magi-tools-audit-fifo-");
  try {
    await Deno.mkdir(join(tmp.path, "sub"));
    const made = await new Deno.Command("mkfifo", { args: [join(tmp.path, "sub", "fifo")] })
      .output();
    assert.equal(made.code, 0);
    await Deno.writeTextFile(
      join(tmp.path, "spec.yaml"),
      [
        'openapi: "3.0.3"',
        'info: { title: t, version: "1" }',
        "paths:",
        "  /a:",
        "    post:",
        "      operationId: a",
        "      requestBody:",
        "        content:",
        "          application/json:",
        '            schema: { $ref: "sub/fifo#/x" }',
        '      responses: { "200": { description: ok } }',
        "",
      ].join("\n"),
    );
    await Deno.writeTextFile(
      join(tmp.path, "magi-tools.jsonc"),
      JSON.stringify({ openapi: { t: { spec: "spec.yaml", baseUrl: "http://127.0.0.1:9/api" } } }),
    );
    // The kill is a hang guard (a 2-core machine under load), not a speed assertion.
    const run = await cli(["tools", "--json"], { cwd: tmp.path, killAfterMs: 60_000 });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /sub\/fifo is not a regular file/);
  } finally {
    await tmp.remove();
  }
});

Deno.test("audit: a spec that is a FIFO is refused, not read forever", async () => {
  const tmp = await tempDir("magi-tools-audit-fifo-");
  try {
    const made = await new Deno.Command("mkfifo", { args: [join(tmp.path, "spec.yaml")] })
      .output();
    assert.equal(made.code, 0);
    await Deno.writeTextFile(
      join(tmp.path, "magi-tools.jsonc"),
      JSON.stringify({ openapi: { t: { spec: "spec.yaml", baseUrl: "http://127.0.0.1:9/api" } } }),
    );
    const run = await cli(["tools", "--json"], { cwd: tmp.path, killAfterMs: 60_000 });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /spec\.yaml: cannot be read: .*spec\.yaml is not a regular file/);
  } finally {
    await tmp.remove();
  }
});
