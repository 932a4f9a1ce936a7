import assert from "node:assert/strict";
import { referenceBackendPath, resolveAgentCommand } from "../../src/run/agent.ts";
import { UsageError } from "../../src/run/exit_codes.ts";

Deno.test("referenceBackendPath() decodes percent-escapes of a directory with spaces", () => {
  assert.equal(
    referenceBackendPath("file:///tmp/my%20dir/src/run/agent.ts"),
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

Deno.test("resolveAgentCommand() falls back to the reference backend on Deno only; on Node.js it asks for --agent", async () => {
  const saved = { agent: Deno.env.get("MAGI_CODE_AGENT"), path: Deno.env.get("PATH") };
  const empty = await Deno.makeTempDir({ prefix: "magi-tools-no-agent-" });
  Deno.env.delete("MAGI_CODE_AGENT");
  Deno.env.set("PATH", empty);
  try {
    const onDeno = await resolveAgentCommand(undefined, { runtime: "deno" });
    assert.equal(onDeno.source, "reference");
    await assert.rejects(
      resolveAgentCommand(undefined, { runtime: "node" }),
      (error: unknown) => error instanceof UsageError && /pass --agent/.test(error.message),
    );
    const named = await resolveAgentCommand("magi-code serve --stdio", { runtime: "node" });
    assert.deepEqual([named.source, named.command, named.args], [
      "flag",
      "magi-code",
      ["serve", "--stdio"],
    ]);
  } finally {
    if (saved.agent === undefined) Deno.env.delete("MAGI_CODE_AGENT");
    else Deno.env.set("MAGI_CODE_AGENT", saved.agent);
    if (saved.path === undefined) Deno.env.delete("PATH");
    else Deno.env.set("PATH", saved.path);
    await Deno.remove(empty);
  }
});
