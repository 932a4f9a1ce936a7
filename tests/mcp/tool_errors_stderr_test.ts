/**
 * Issue 26 item 3: an expected tool error ("File not found") printed a 4-line stack trace on
 * `magi-tools mcp`'s stderr, which the agents show in their logs. Now it is one line naming the
 * tool, its file and the message, for inline and process-isolated tools alike; the client gets
 * the message as an `isError` result.
 */

import assert from "node:assert/strict";
import { ROOT } from "../e2e/_cli.ts";
import { startMcpStdio } from "./_stdio.ts";

const TOOLS = `${ROOT}tests/mcp/fixtures/door_tools`;

Deno.test("mcp: a tool that throws prints one stderr line, no stack trace", async () => {
  const mcp = await startMcpStdio(TOOLS);
  let stderr = "";
  try {
    for (const name of ["missing_inline", "missing_process"]) {
      const result = await mcp.client.callTool({ name, arguments: {} }) as {
        content: { text?: string }[];
        isError?: boolean;
      };
      assert.equal(result.isError, true);
      assert.match(result.content[0]!.text!, /^File not found: (inline|process)-nope\.txt$/);
    }
  } finally {
    stderr = await mcp.close();
  }
  assert.doesNotMatch(stderr, /^\s+at /m, `no stack trace:\n${stderr}`);
  for (const which of ["inline", "process"]) {
    const lines = stderr.split("\n").filter((line) => line.includes(`${which}-nope.txt`));
    assert.equal(lines.length, 1, `one line for ${which}:\n${stderr}`);
    assert.match(
      lines[0]!,
      new RegExp(`^Tool missing_${which} \\(.*missing_${which}\\.ts\\) failed: File not found`),
    );
  }
});
