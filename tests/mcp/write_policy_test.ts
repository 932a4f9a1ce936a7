/** The approval request's message: names the tool, shows the arguments, escapes controls. */

import assert from "node:assert/strict";
import { approvalMessage } from "../../src/mcp/write_policy.ts";

Deno.test("approvalMessage() names the tool, each argument on its own line, and the expiry", () => {
  assert.equal(
    approvalMessage("write_note", { text: "hi", path: "a.txt" }, 120_000),
    "magi-tools: approve the write tool write_note? It runs with these arguments:\n" +
      '  path: "a.txt"\n  text: "hi"\n' +
      "(no answer within 120 s: not run)",
  );
  assert.match(approvalMessage("w", {}, 250), /\(no answer within 250 ms: not run\)$/);
});

Deno.test("approvalMessage() shows C0, C1 and DEL controls of the model's arguments escaped", () => {
  const message = approvalMessage("w", { text: "\x1b]52;c;x\x07 \u009b2J \x7f \r" }, 1000);
  // Line feeds separate the fields; no other control character is left.
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  assert.doesNotMatch(message, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  assert.match(message, /\\u001b\]52;c;x\\u0007 \\u009b2J \\u007f \\r/);
});
