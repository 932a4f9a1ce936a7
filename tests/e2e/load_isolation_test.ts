import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { ROOT, runCli } from "./_cli.ts";

const LOAD_FIXTURES = `${ROOT}tests/sandbox/load_fixtures`;

// The CLI's contract (exit 2 naming the module, nothing leaked or written) for two of the
// permissions; each permission's refusal is pinned in-process by
// tests/host/sandbox/load_isolation_test.ts (loadToolDirs(), the same describe child).
for (const permission of ["read", "write"]) {
  Deno.test(`tools exits 2 for a tool module that needs ${permission} access at load time`, async () => {
    await Deno.remove("/tmp/magi-tools-load-write-probe").catch(() => {});
    const dir = `${LOAD_FIXTURES}/${permission}`;
    const result = await runCli(["tools", "--tools", dir], { raw: true });
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.ok(
      result.stderr.includes(
        `Tool module needs ${permission} access at load time, which is not allowed: ${dir}/tool.ts`,
      ),
      result.stderr,
    );
    // Nothing the module asked for leaked: no secret in the output, nothing written.
    assert.ok(!result.stderr.includes("declared content"), result.stderr);
    assert.equal(existsSync("/tmp/magi-tools-load-write-probe"), false);
  });
}
