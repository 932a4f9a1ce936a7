import assert from "node:assert/strict";
import { referenceBackendPath, resolveAgentCommand } from "../../src/cli/agent.ts";
import { UsageError } from "../../src/cli/exit_codes.ts";

Deno.test("referenceBackendPath() decodes percent-escapes of a directory with spaces", () => {
  assert.equal(
    referenceBackendPath("file:///tmp/my%20dir/src/cli/agent.ts"),
    "/tmp/my dir/src/reference_backend/main.ts",
  );
});

Deno.test("resolveAgentCommand() names MAGI_CODE_AGENT when its value is malformed", async () => {
  const saved = Deno.env.get("MAGI_CODE_AGENT");
  Deno.env.set("MAGI_CODE_AGENT", "magi-code 'serve");
  try {
    await assert.rejects(
      resolveAgentCommand(undefined),
      (error: unknown) =>
        error instanceof UsageError &&
        /^MAGI_CODE_AGENT: Unterminated single quote/.test(error.message),
    );
    await assert.rejects(
      resolveAgentCommand("x 'y"),
      (error: unknown) => error instanceof UsageError && /^--agent: /.test(error.message),
    );
  } finally {
    if (saved === undefined) Deno.env.delete("MAGI_CODE_AGENT");
    else Deno.env.set("MAGI_CODE_AGENT", saved);
  }
});
