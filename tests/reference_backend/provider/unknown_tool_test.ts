/**
 * A prompt naming a tool that does not exist, through the CLI with the reference backend: the
 * scripted provider says so and lists the tools it knows (issue 24 item 8); a prompt naming a
 * real tool still calls it, and a plain prompt is still echoed alone.
 */
import assert from "node:assert/strict";
import { FIXTURE_TOOLS, ofType, runCli, SCENARIO } from "../../e2e/_cli.ts";
import { planTurn, unknownToolHint } from "../../../src/reference_backend/provider/planner.ts";

/** The assistant's whole text of a run. */
function assistant(records: Array<Record<string, unknown>>): string {
  return records.filter((r) => r.type === "message").map((r) => String(r.text)).join("\n");
}

Deno.test("scripted provider: an unknown tool with arguments is named, with the known tools", async () => {
  const run = await runCli(["run", "--tools", FIXTURE_TOOLS, 'Use nosuchtool {"a":1}'], {
    env: { MAGI_SCENARIO: SCENARIO },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(ofType(run.records, "tool.call").length, 0);
  const text = assistant(run.records);
  assert.match(text, /^Scripted reply: Use nosuchtool \{"a":1\}\nNo tool named nosuchtool: /);
  assert.match(text, /it knows big, counter, note, sleepy, slow_timeout, stubborn$/);
});

Deno.test("scripted provider: a misspelt tool gets a did-you-mean; a real one is still called", async () => {
  const misspelt = await runCli(["run", "--tools", FIXTURE_TOOLS, "Please run sleepi now"], {
    env: { MAGI_SCENARIO: SCENARIO },
  });
  assert.equal(misspelt.code, 0, misspelt.stderr);
  assert.match(assistant(misspelt.records), /No tool named sleepi \(did you mean sleepy\?\)/);
  const real = await runCli(["run", "--tools", FIXTURE_TOOLS, 'Use sleepy {"ms":1}'], {
    env: { MAGI_SCENARIO: SCENARIO },
  });
  assert.equal(real.code, 0, real.stderr);
  assert.equal(ofType(real.records, "tool.call").length, 1);
  assert.doesNotMatch(assistant(real.records), /No tool named/);
});

Deno.test("planTurn: a plain prompt is echoed alone; an unknown tool adds one line", () => {
  assert.deepEqual(planTurn("hello there", ["note"]), [
    { kind: "say", text: "Scripted reply: hello there", repeat: 1, literal: true },
  ]);
  const [step] = planTurn('x {"a":1}', []);
  assert.equal(
    step?.kind === "say" ? step.text : "",
    'Scripted reply: x {"a":1}\nNo tool named x: the scripted provider calls the tools the prompt ' +
      "names (name {json} or a bare name); it knows none: no client tools are registered",
  );
  const many = Array.from({ length: 25 }, (_, i) => `tool_${String(i).padStart(2, "0")}`);
  assert.match(unknownToolHint('ghost {"a":1}', many)!, /tool_19 and 5 more$/);
  // Short words near a short name are not taken for a tool ("note" / "nose").
  assert.equal(unknownToolHint("my nose", ["note"]), null);
});
