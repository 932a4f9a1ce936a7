import assert from "node:assert/strict";
import { sandbox } from "./_setup.ts";

Deno.test("an isolated tool reads a declared file", async () => {
  const box = await sandbox();
  try {
    const result = await box.call("probe", { action: "read" });
    assert.equal(result.outcome, "success");
    assert.equal(result.text, "declared content\n");
  } finally {
    await box.close();
  }
});

Deno.test("an isolated tool fetches a declared loopback server", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 18231, onListen: () => {} },
    () => new Response("hello from loopback"),
  );
  const box = await sandbox();
  try {
    const result = await box.call("probe", { action: "fetch", target: "http://127.0.0.1:18231/" });
    assert.equal(result.outcome, "success");
    assert.equal(result.text, "hello from loopback");
  } finally {
    await box.close();
    await server.shutdown();
  }
});

Deno.test("an isolated tool reads a declared environment variable", async () => {
  Deno.env.set("PROBE_ALLOWED", "visible value");
  const box = await sandbox();
  try {
    const result = await box.call("probe", { action: "env", target: "PROBE_ALLOWED" });
    assert.equal(result.outcome, "success");
    assert.equal(result.text, "visible value");
  } finally {
    await box.close();
    Deno.env.delete("PROBE_ALLOWED");
  }
});
