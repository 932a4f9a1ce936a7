import assert from "node:assert/strict";
import { configNeeds, needsApproval } from "../../src/config/needs.ts";

Deno.test("configNeeds() lists every stdio server's command and the ${VAR}s of expanded keys", () => {
  const needs = configNeeds({
    mcpServers: {
      fs: { command: "npx", args: ["-y", "server", "${ROOT:-.}"], env: { K: "${KEY}" } },
      off: { command: "${BIN}", enabled: false },
      api: {
        url: "https://${HOST}/mcp",
        headers: { Authorization: "Bearer ${TOKEN}" },
        descriptions: { t: "not expanded: ${NOPE}" },
      },
    },
    openapi: { tickets: { spec: "t.yaml", auth: { header: "X", valueFromEnv: "T_KEY" } } },
  });
  assert.deepEqual(needs.commands, [
    { server: "fs", command: "npx", args: ["-y", "server", "${ROOT:-.}"] },
    { server: "off", command: "${BIN}", args: [] },
  ]);
  assert.deepEqual(needs.variables, [
    { name: "ROOT", at: "mcpServers.fs.args[2]" },
    { name: "KEY", at: "mcpServers.fs.env.K" },
    { name: "BIN", at: "mcpServers.off.command" },
    { name: "HOST", at: "mcpServers.api.url" },
    { name: "TOKEN", at: "mcpServers.api.headers.Authorization" },
    { name: "T_KEY", at: "openapi.tickets.auth.valueFromEnv" },
  ]);
  assert.equal(needsApproval(needs), true);
});

Deno.test("configNeeds() finds nothing in a config of URLs and documents without variables", () => {
  for (
    const value of [
      {},
      { mcpServers: {} },
      { mcpServers: { api: { url: "https://example.com/mcp", headers: { "X-A": "b" } } } },
      { openapi: { pets: { spec: "https://example.com/pets.yaml", baseUrl: "https://e.com" } } },
      "not an object",
      null,
    ]
  ) {
    assert.equal(needsApproval(configNeeds(value)), false, JSON.stringify(value));
  }
});

Deno.test("configNeeds() counts a command that is not a string (the parser rejects it later)", () => {
  const needs = configNeeds({ mcpServers: { x: { command: ["sh", "-c", "id"] } } });
  assert.deepEqual(needs.commands, [{ server: "x", command: '["sh","-c","id"]', args: [] }]);
});

Deno.test("configNeeds(): an HTTP server with oauth uses the user's sign-in: approval needed", () => {
  const needs = configNeeds({ mcpServers: { gh: { url: "https://mcp.example/mcp", oauth: {} } } });
  assert.deepEqual(needs.signIns, [{ server: "gh", url: "https://mcp.example/mcp" }]);
  assert.equal(needsApproval(needs), true);
  assert.equal(needsApproval(configNeeds({ mcpServers: { gh: { url: "https://x/mcp" } } })), false);
});
