import assert from "node:assert/strict";
import {
  hostFailed,
  invalidArguments,
  invalidArgumentsFrom,
  permissionDenied,
  resultNotText,
  resultTooLarge,
  resultTooManyParts,
  stopped,
  toolCrashed,
  toolFailed,
  unknownTool,
} from "../../src/tool/answers.ts";
import { utf8ByteLength } from "../../src/protocol/utf8.ts";

Deno.test("answers.ts builds each error answer with its code and text", () => {
  const table = [
    [unknownTool("nope", false), "unknown_tool", "Unknown tool: nope"],
    [
      unknownTool("t", true),
      "unknown_tool",
      "Unknown tool: t (tool_id does not match the registered definition)",
    ],
    [
      invalidArguments([{ path: ["text"], message: "Required" }]),
      "invalid_arguments",
      /^Invalid arguments: .*text.*Required/,
    ],
    [invalidArgumentsFrom("Invalid arguments: x"), "invalid_arguments", "Invalid arguments: x"],
    [toolFailed("boom"), "tool_failed", "boom"],
    [toolFailed("  "), "tool_failed", "Tool failed without a message"],
    [resultNotText("Cannot serialize"), "tool_failed", "Cannot serialize"],
    [hostFailed(), "tool_failed", "Tool host failed internally"],
    [
      resultTooLarge(300, 200),
      "result_too_large",
      "Result too large: 300 bytes exceeds the limit of 200 bytes",
    ],
    [
      resultTooManyParts(300, 9, 8),
      "result_too_large",
      "Result too large: 300 bytes needs 9 parts, more than the limit of 8 parts",
    ],
    [toolCrashed("exit code 1"), "tool_crashed", "Tool process crashed: exit code 1"],
    [
      permissionDenied("net"),
      "permission_denied",
      "Permission denied: net access to a host outside the declared list",
    ],
  ] as const;
  for (const [answer, code, text] of table) {
    assert.equal(answer.outcome, "error");
    assert.equal(answer.errorCode, code);
    if (typeof text === "string") assert.equal(answer.text, text);
    else assert.match(answer.text, text);
  }
});

Deno.test("a tool's own message is cut at 1,024 UTF-8 bytes; a tool name at 64", () => {
  assert.ok(utf8ByteLength(toolFailed("é".repeat(2_000)).text) <= 1_024);
  assert.ok(utf8ByteLength(toolCrashed("x".repeat(5_000)).text) <= 1_024);
  assert.ok(unknownTool("n".repeat(500), false).text.length <= "Unknown tool: ".length + 64);
});

Deno.test("stopped() answers cancelled or timeout and says how an unresponsive tool ended", () => {
  assert.deepEqual(stopped({ kind: "cancel" }, null, 100), {
    outcome: "cancelled",
    text: "Tool call cancelled",
    abandoned: false,
    killed: false,
  });
  const timedOut = stopped({ kind: "timeout", ms: 50 }, "killed", 100);
  assert.equal(timedOut.errorCode, "timeout");
  assert.equal(
    timedOut.text,
    "Tool call timed out: the tool's timeout of 50 ms passed; the tool did not stop within " +
      "100 ms of being signalled and its process was killed",
  );
  assert.equal(timedOut.killed, true);
  const late = stopped({ kind: "deadline", ms: 900 }, "abandoned", 100);
  assert.match(late.text, /^Tool call timed out: the call deadline of 900 ms passed; .*abandoned$/);
  assert.equal(late.abandoned, true);
});
