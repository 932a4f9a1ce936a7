import assert from "node:assert/strict";
import { REQUEST_ID_RESERVE } from "../../src/client/connection.ts";
import { fakeAgent, FIXTURE_TOOLS, runCli } from "./_cli.ts";

// initialize, session.create and turn.start use three request IDs; with this budget the
// reserve is all that is left when the tool call arrives, so its result cannot be sent.
const BUDGET = 3 + REQUEST_ID_RESERVE;

Deno.test("run: a request-ID budget too small for a tool result cancels the turn, one host.error request_budget_exhausted, exit 1", async () => {
  const result = await runCli(
    ["run", "--tools", FIXTURE_TOOLS, "--agent", fakeAgent("tool_call"), "hello"],
    {
      env: { FAKE_REQUEST_IDS: String(BUDGET), FAKE_CANCEL_GRACE_MS: "200" },
      killAfterMs: 30_000,
    },
  );
  assert.equal(result.code, 1, result.stderr);
  const types = result.records.map((r) => r.type);
  assert.equal(types.at(-1), "host.error", "host.error is the last record");
  assert.ok(types.includes("tool.call") && types.includes("tool.cancel"), types.join(" "));
  assert.ok(!types.includes("tool.result"), "the call was neither run nor answered");
  assert.ok(!types.includes("turn.finished"), "host.error replaces turn.finished");
  const errors = result.records.filter((r) => r.type === "host.error");
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.code, "request_budget_exhausted");
  assert.equal(errors[0]!.exit_code, 1);
  assert.match(
    String(errors[0]!.message),
    /Request ID budget exhausted.*turn was cancelled \(run\.finished cancelled\)/,
  );
});

Deno.test("run: a budget with room for the tool result completes the turn", async () => {
  const result = await runCli(
    ["run", "--tools", FIXTURE_TOOLS, "--agent", fakeAgent("tool_call"), "hello"],
    { env: { FAKE_REQUEST_IDS: String(BUDGET + 1) }, killAfterMs: 30_000 },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.records.filter((r) => r.type === "host.error").length, 0);
  assert.equal(result.records.at(-1)?.type, "turn.finished");
});
