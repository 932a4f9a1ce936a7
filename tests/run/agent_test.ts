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

Deno.test("resolveAgentCommand() never falls back to the reference backend: backend_unavailable naming --agent reference; 'reference' names it on Deno only", async () => {
  const saved = { agent: Deno.env.get("MAGI_CODE_AGENT"), path: Deno.env.get("PATH") };
  const empty = await Deno.makeTempDir({ prefix: "magi-tools-no-agent-" });
  Deno.env.delete("MAGI_CODE_AGENT");
  Deno.env.set("PATH", empty);
  try {
    for (const runtime of ["deno", "node"] as const) {
      await assert.rejects(
        resolveAgentCommand(undefined, { runtime }),
        (error: unknown) =>
          isHostError(error, "backend_unavailable") && /--agent reference/.test(error.message),
      );
    }
    const assumed = await resolveAgentCommand(undefined, { missing: "magi-code" });
    assert.deepEqual([assumed.command, assumed.args], ["magi-code", ["serve", "--stdio"]]);
    const reference = await resolveAgentCommand("reference", { runtime: "deno" });
    assert.equal(reference.label, "reference_backend");
    assert.equal(reference.source, "flag");
    await assert.rejects(
      resolveAgentCommand("reference", { runtime: "node" }),
      (error: unknown) =>
        error instanceof UsageError && /only available on Deno/.test(error.message),
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
