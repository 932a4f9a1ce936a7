/** First-contact behaviours (issue 12): flags, errors and messages a new user meets. */
import assert from "node:assert/strict";
import { ofType, one, ROOT, runCli } from "./_cli.ts";

const TOOLS = `${ROOT}tests/e2e/fixtures/first_contact_tools`;
const WITH_SCENARIO = {
  env: { MAGI_SCENARIO: `${ROOT}tests/e2e/fixtures/scenarios/first_contact.jsonc` },
};

function run(prompt: string, ...flags: string[]): string[] {
  return ["run", "--tools", TOOLS, ...flags, prompt];
}

Deno.test("run --fail-on-tool-error: a tool error exits 1 and turn.finished says why", async () => {
  const result = await runCli(run("FAILS", "--fail-on-tool-error"), WITH_SCENARIO);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(one(result.records, "tool.result").outcome, "error");
  const finished = one(result.records, "turn.finished");
  assert.equal(finished.outcome, "completed");
  assert.equal(finished.exit_code, 1);
  assert.equal(finished.exit_reason, "tool_errors");
  assert.match(
    result.stderr,
    /--fail-on-tool-error: 1 tool error\(s\) or denial\(s\) in this turn: exit 1/,
  );
});

Deno.test("run without --fail-on-tool-error: a tool error still exits 0, no exit_reason", async () => {
  const result = await runCli(run("FAILS"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  const finished = one(result.records, "turn.finished");
  assert.equal(finished.exit_code, 0);
  assert.equal("exit_reason" in finished, false);
});

Deno.test("run --fail-on-tool-error: successful calls exit 0", async () => {
  const result = await runCli(run("OK", "--fail-on-tool-error"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(one(result.records, "tool.result").outcome, "success");
  assert.equal("exit_reason" in one(result.records, "turn.finished"), false);
});

Deno.test("run --fail-on-tool-error: a denied approval exits 1", async () => {
  // The fixture tools of the main e2e set: `note` is a write tool, denied by default.
  const result = await runCli(
    ["run", "--tools", `${ROOT}tests/e2e/fixtures/tools`, "--fail-on-tool-error", "APPROVE"],
    { env: { MAGI_SCENARIO: `${ROOT}tests/e2e/fixtures/scenarios/results.jsonc` } },
  );
  assert.equal(result.code, 1, result.stderr);
  assert.equal(one(result.records, "approval").decision, "deny");
  assert.equal(ofType(result.records, "tool.call").length, 0);
  assert.equal(one(result.records, "turn.finished").exit_reason, "tool_errors");
});
