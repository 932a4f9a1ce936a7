import assert from "node:assert/strict";
import { referenceBackendPath, resolveAgentCommand } from "../../src/run/agent.ts";
import { isHostError, UsageError } from "../../src/errors/mod.ts";

Deno.test("referenceBackendPath() decodes percent-escapes of a directory with spaces", () => {
  assert.equal(
    referenceBackendPath("file:///tmp/my%20dir/src/run/agent.ts"),
    "/tmp/my dir/src/reference_backend/main.ts",
  );
});

Deno.test("resolveAgentCommand() names MAGI_CODE_AGENT when its value is malformed", async () => {
  const env = (name: string) => name === "MAGI_CODE_AGENT" ? "magi-code 'serve" : undefined;
  await assert.rejects(
    resolveAgentCommand(undefined, { env }),
    (error: unknown) =>
      error instanceof UsageError &&
      /^MAGI_CODE_AGENT: Unterminated single quote/.test(error.message),
  );
  await assert.rejects(
    resolveAgentCommand("x 'y", { env }),
    (error: unknown) => error instanceof UsageError && /^--agent: /.test(error.message),
  );
});

Deno.test("resolveAgentCommand() never falls back to the reference backend: backend_unavailable naming --agent reference; 'reference' names it on Deno only", async () => {
  const empty = await Deno.makeTempDir({ prefix: "magi-tools-no-agent-" });
  // An environment of its own (no MAGI_CODE_AGENT, PATH an empty directory): the suite's other
  // modules run at the same time (--parallel) and need the real PATH.
  const env = (name: string) => name === "PATH" ? empty : undefined;
  try {
    for (const runtime of ["deno", "node"] as const) {
      await assert.rejects(
        resolveAgentCommand(undefined, { runtime, env }),
        (error: unknown) =>
          isHostError(error, "backend_unavailable") && /--agent reference/.test(error.message),
      );
    }
    const assumed = await resolveAgentCommand(undefined, { missing: "magi-code", env });
    assert.deepEqual([assumed.command, assumed.args], ["magi-code", ["serve", "--stdio"]]);
    const reference = await resolveAgentCommand("reference", { runtime: "deno", env });
    assert.equal(reference.label, "reference_backend");
    assert.equal(reference.source, "flag");
    await assert.rejects(
      resolveAgentCommand("reference", { runtime: "node", env }),
      (error: unknown) =>
        error instanceof UsageError && /only available on Deno/.test(error.message),
    );
    const named = await resolveAgentCommand("magi-code serve --stdio", { runtime: "node", env });
    assert.deepEqual([named.source, named.command, named.args], [
      "flag",
      "magi-code",
      ["serve", "--stdio"],
    ]);
  } finally {
    await Deno.remove(empty);
  }
});
