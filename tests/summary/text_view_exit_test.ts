/**
 * The terminal view's last line through the CLI (issue 24 item 11): a completed turn that
 * `--fail-on-tool-error` fails (exit 1) is not shown with a green ✔; without the flag the same
 * turn still ends `✔ completed · … · exit 0`.
 */
import assert from "node:assert/strict";
import { FIXTURE_TOOLS, runCli, SCENARIO } from "../e2e/_cli.ts";

const PROMPT = 'Use sleepy {"ms":-5}'; // invalid arguments: the call ends in error

Deno.test("text view: a run failed by --fail-on-tool-error ends with ✘, not ✔, beside exit 1", async () => {
  const failed = await runCli(
    ["run", "--format", "text", "--fail-on-tool-error", "--tools", FIXTURE_TOOLS, PROMPT],
    { raw: true, env: { MAGI_SCENARIO: SCENARIO } },
  );
  assert.equal(failed.code, 1, failed.stderr);
  const last = failed.stdout.trimEnd().split("\n").at(-1)!;
  assert.match(last, /^✘ completed \(tool errors\) · 1 call · .* · exit 1$/, failed.stdout);

  const plain = await runCli(["run", "--format", "text", "--tools", FIXTURE_TOOLS, PROMPT], {
    raw: true,
    env: { MAGI_SCENARIO: SCENARIO },
  });
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout.trimEnd().split("\n").at(-1)!, /^✔ completed · 1 call · .* · exit 0$/);
});
