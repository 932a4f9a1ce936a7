/**
 * Issue 31 item 7: a tool process, and every program it starts, sees only the variables the
 * tool declared plus what the runtime needs, never the host's other variables (tokens).
 */
import assert from "node:assert/strict";
import { ROOT, startCli } from "./_procs_cli.ts";

const TOOLS = `${ROOT}tests/security/fixtures/env_tools`;
const SECRET = "tok-7c1e0d9a-never-shown";

async function showEnv(): Promise<string> {
  const output = await startCli(["call", "show_env", "{}", "--tools", TOOLS, "--json"], {
    env: { MAGI_TEST_HOST_TOKEN: SECRET, DECLARED_VAR: "declared-value" },
  });
  assert.equal(output.code, 0, `${output.stdout}\n${output.stderr}`);
  const record = JSON.parse(output.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
  assert.equal(record.type, "call.result", output.stdout);
  assert.equal(record.outcome, "success", output.stdout);
  return String(record.text);
}

Deno.test("a program a tool starts does not see the host's undeclared variables", async () => {
  const text = await showEnv();
  assert.ok(!text.includes(SECRET), text);
  assert.ok(!text.includes("MAGI_TEST_HOST_TOKEN"), text);
});

Deno.test("a tool and its programs still see the variables it declared and PATH", async () => {
  const text = await showEnv();
  assert.match(text, /^declared=declared-value$/m);
  assert.match(text, /^DECLARED_VAR=declared-value$/m);
  assert.match(text, /^PATH=/m);
});
