import assert from "node:assert/strict";
import { CONFIG_SECTIONS, ConfigError, loadConfig, parseConfigText } from "../../src/config/mod.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

function parse(text: string, vars: Record<string, string> = {}) {
  return parseConfigText(text, { file: "magi-tools.jsonc", env: env(vars) });
}

function rejects(text: string, message: RegExp) {
  assert.throws(() => parse(text), (error: Error) => {
    assert.ok(error instanceof ConfigError, String(error));
    assert.match(error.message, message);
    return true;
  });
}

Deno.test("parseConfigText() reads a Claude Desktop mcpServers block as pasted, with comments", () => {
  const config = parse(`{
    // comment
    "mcpServers": {
      "fs": { "command": "npx", "args": ["-y", "server-filesystem", "/tmp"], "env": { "A": "1" } },
      "api": { "type": "http", "url": "https://example.com/mcp", "headers": { "X": "y" } },
    },
  }`);
  assert.deepEqual(config.mcpServers.map((s) => s.name), ["fs", "api"]);
  assert.deepEqual(config.mcpServers[0]!.transport, {
    kind: "stdio",
    command: "npx",
    args: ["-y", "server-filesystem", "/tmp"],
    env: { A: "1" },
  });
  assert.deepEqual(config.mcpServers[1]!.transport, {
    kind: "http",
    url: "https://example.com/mcp",
    headers: { X: "y" },
  });
  const fs = config.mcpServers[0]!;
  assert.deepEqual(
    [fs.prefix, fs.enabled, fs.optional, fs.exclude, fs.include],
    ["fs_", true, false, [], undefined],
  );
});

Deno.test("parseConfigText() reads the per-server options", () => {
  const [server] = parse(`{"mcpServers":{"e":{"command":"x","include":["echo","get-*"],
    "exclude":["get-env"],"effects":{"echo":"write"},"descriptions":{"echo":"Say it."},
    "timeoutMs":5000,"prefix":"ev_","enabled":false,"optional":true}}}`).mcpServers;
  assert.deepEqual(server!.include, ["echo", "get-*"]);
  assert.deepEqual(server!.exclude, ["get-env"]);
  assert.deepEqual(server!.effects, { echo: "write" });
  assert.deepEqual(server!.descriptions, { echo: "Say it." });
  assert.deepEqual([server!.timeoutMs, server!.prefix, server!.enabled, server!.optional], [
    5000,
    "ev_",
    false,
    true,
  ]);
});

Deno.test("parseConfigText() names the key path of an unknown key or a bad value", () => {
  rejects(
    `{"mcpServer":{}}`,
    /^magi-tools.jsonc: mcpServer: unknown key \(known: \$schema, mcpServers, openapi, records, approvals\)/,
  );
  rejects(`{"openapi":{"t":{}}}`, /^magi-tools.jsonc: openapi.t.spec: required/);
  rejects(
    `{"mcpServers":{"fs":{"command":"x","tiemoutMs":1}}}`,
    /mcpServers.fs.tiemoutMs: unknown key/,
  );
  rejects(
    `{"mcpServers":{"fs":{"command":"x","timeoutMs":10}}}`,
    /mcpServers.fs.timeoutMs: must be an integer from 1000 to 600000/,
  );
  rejects(
    `{"mcpServers":{"fs":{"command":"x","args":["a",3]}}}`,
    /mcpServers.fs.args\[1\]: must be a string/,
  );
  rejects(
    `{"mcpServers":{"fs":{"command":"x","effects":{"t":"rw"}}}}`,
    /mcpServers.fs.effects.t: must be "read" or "write"/,
  );
  rejects(
    `{"mcpServers":{"fs":{"command":"x","enabled":"no"}}}`,
    /mcpServers.fs.enabled: must be true or false/,
  );
  rejects(
    `{"mcpServers":{"fs":{}}}`,
    /mcpServers.fs: needs exactly one of "command" \(stdio\) or "url"/,
  );
  rejects(`{"mcpServers":{"fs":{"command":"x","url":"http://a"}}}`, /needs exactly one/);
  rejects(
    `{"mcpServers":{"fs":{"url":"ftp://a"}}}`,
    /mcpServers.fs.url: must be an http: or https: URL/,
  );
  rejects(
    `{"mcpServers":{"fs":{"url":"http://a","type":"sse"}}}`,
    /mcpServers.fs.type: the deprecated SSE transport/,
  );
  rejects(
    `{"mcpServers":{"fs":{"url":"http://a","env":{}}}}`,
    /mcpServers.fs.env: is only for "command" servers/,
  );
  rejects(`{"mcpServers":{"9fs":{"command":"x"}}}`, /mcpServers."9fs": server name must match/);
  rejects(
    `{"mcpServers":{"fs":{"command":"x","prefix":"1x"}}}`,
    /mcpServers.fs.prefix: must be ""/,
  );
  rejects(`{"mcpServers":[]}`, /mcpServers: must be an object/);
  rejects(`[]`, /\(root\): must be an object/);
  rejects(`{"mcpServers": {,}}`, /^magi-tools.jsonc:1:\d+: invalid JSONC: /);
});

Deno.test("parseConfigText() rejects a key defined twice in one object, naming its path", () => {
  rejects(
    `{"mcpServers":{"fs":{"command":"a"},"fs":{"command":"b"}}}`,
    /magi-tools.jsonc: mcpServers.fs: key defined twice in one object/,
  );
  rejects(
    `{"mcpServers":{"fs":{"command":"a","args":[{"x":1}],"env":{"K":"1","K":"2"}}}}`,
    /mcpServers.fs.env.K: key defined twice/,
  );
  // The same key in different objects is fine.
  assert.equal(
    parse(`{"mcpServers":{"a":{"command":"x"},"b":{"command":"x"}}}`).mcpServers.length,
    2,
  );
});

Deno.test("parseConfigText() expands ${VAR} and ${VAR:-default}, and names an unset variable", () => {
  const [server] = parse(
    `{"mcpServers":{"a":{"url":"https://\${HOST}/mcp","headers":{"Authorization":"Bearer \${TOKEN}","X":"\${NONE:-d}"}}}}`,
    { HOST: "example.com", TOKEN: "t0k" },
  ).mcpServers;
  assert.deepEqual(server!.transport, {
    kind: "http",
    url: "https://example.com/mcp",
    headers: { Authorization: "Bearer t0k", X: "d" },
  });
  rejects(
    `{"mcpServers":{"a":{"command":"x","env":{"K":"\${MISSING}"}}}}`,
    /mcpServers.a.env.K: environment variable MISSING is not set/,
  );
});

Deno.test("CONFIG_SECTIONS is the table of top-level keys", () => {
  assert.deepEqual(Object.keys(CONFIG_SECTIONS), [
    "$schema",
    "mcpServers",
    "openapi",
    "records",
    "approvals",
  ]);
});

Deno.test('parseConfigText() reads "records": { "arguments": true } and names a bad value', () => {
  const config = parseConfigText(`{"records":{"arguments":true}}`, { file: "magi-tools.jsonc" });
  assert.equal(config.recordArguments, true);
  rejects(`{"records":{"arguments":"yes"}}`, /records.arguments: must be true or false/);
  rejects(`{"records":{"argument":true}}`, /records.argument: unknown key/);
});

function files(map: Record<string, string>) {
  return (path: string) => Promise.resolve(map[path] ?? null);
}

/** Approves every project config (these configs start commands; approval_test.ts tests that). */
const approveAll = () => Promise.resolve({ approved: true as const, by: "env" as const });

Deno.test("loadConfig() reads magi-tools.jsonc in cwd unless --no-config, and --config must exist", async () => {
  const readFile = files({
    "/p/magi-tools.jsonc": `{"mcpServers":{"a":{"command":"x"}}}`,
    "/p/other.jsonc": `{"mcpServers":{"b":{"command":"y"}}}`,
  });
  const base = { cwd: "/p", readFile, env: env({}), trustConfig: approveAll };
  assert.deepEqual((await loadConfig(base)).mcpServers.map((s) => s.name), ["a"]);
  assert.deepEqual((await loadConfig({ ...base, noConfig: true })).mcpServers, []);
  assert.deepEqual(
    (await loadConfig({ ...base, config: "other.jsonc" })).mcpServers.map((s) => s.name),
    ["b"],
  );
  await assert.rejects(
    loadConfig({ ...base, config: "nope.jsonc" }),
    /Config file not found: nope.jsonc/,
  );
  await assert.rejects(
    loadConfig({ ...base, config: "other.jsonc", noConfig: true }),
    /--config and --no-config cannot be combined/,
  );
  const none = await loadConfig({ cwd: "/q", readFile, env: env({}) });
  assert.deepEqual([none.files, none.mcpServers], [[], []]);
});

Deno.test("loadConfig() adds --mcp-config files (other top-level keys ignored) and rejects a name defined twice", async () => {
  const readFile = files({
    "/p/magi-tools.jsonc": `{"mcpServers":{"a":{"command":"x"}}}`,
    "/p/claude.json": `{"globalShortcut":"x","mcpServers":{"b":{"command":"y"}}}`,
    "/p/dup.json": `{"mcpServers":{"a":{"command":"z"}}}`,
    "/p/none.json": `{"servers":{}}`,
  });
  const base = { cwd: "/p", readFile, env: env({}), trustConfig: approveAll };
  const both = await loadConfig({ ...base, mcpConfigs: ["claude.json"] });
  assert.deepEqual(both.mcpServers.map((s) => s.name), ["a", "b"]);
  assert.deepEqual(both.files, ["magi-tools.jsonc", "claude.json"]);
  await assert.rejects(
    loadConfig({ ...base, mcpConfigs: ["dup.json"] }),
    /MCP server a is defined twice: in magi-tools.jsonc and dup.json/,
  );
  await assert.rejects(
    loadConfig({ ...base, mcpConfigs: ["none.json"] }),
    /none.json: \(root\): has no "mcpServers" object/,
  );
  await assert.rejects(
    loadConfig({ ...base, mcpConfigs: ["gone.json"] }),
    /MCP config file not found: gone.json/,
  );
});

Deno.test("loadConfig() skips a magi-tools.jsonc it may not read, but not a --config file", async () => {
  const denied = (path: string) =>
    Promise.reject(
      new ConfigError(`Cannot read config file: ${path}: denied`, { permission: true }),
    );
  const none = await loadConfig({ cwd: "/p", readFile: denied, env: env({}) });
  assert.deepEqual(none.mcpServers, []);
  await assert.rejects(
    loadConfig({ cwd: "/p", readFile: denied, env: env({}), config: "x.jsonc" }),
    /Cannot read config file: \/p\/x.jsonc: denied/,
  );
});

Deno.test("parseConfigText() reads an HTTP server's clientCredentials, resource default its url", () => {
  const cc = '"clientIdFromEnv":"ID","clientSecretFromEnv":"SECRET"';
  const config = parse(
    `{"mcpServers":{"api":{"url":"https://mcp.example/mcp","clientCredentials":{"tokenUrl":"https://id.example/token",${cc},"scopes":["mcp:tools"]}}}}`,
  );
  const transport = config.mcpServers[0]!.transport;
  assert.equal(transport.kind, "http");
  assert.deepEqual(transport.kind === "http" ? transport.clientCredentials : undefined, {
    tokenUrl: "https://id.example/token",
    clientIdFromEnv: "ID",
    clientSecretFromEnv: "SECRET",
    scopes: ["mcp:tools"],
    resource: "https://mcp.example/mcp",
  });
  rejects(
    `{"mcpServers":{"fs":{"command":"x","clientCredentials":{}}}}`,
    /mcpServers.fs.clientCredentials: is only for "url" servers/,
  );
  rejects(
    `{"mcpServers":{"api":{"url":"http://a","clientCredentials":{${cc}}}}}`,
    /mcpServers.api.clientCredentials.tokenUrl: /,
  );
  rejects(
    `{"mcpServers":{"api":{"url":"http://a","clientCredentials":{"tokenUrl":"http://u:p@id/token",${cc}}}}}`,
    /mcpServers.api.clientCredentials.tokenUrl: must be an http\(s\) URL without credentials/,
  );
  rejects(
    `{"mcpServers":{"api":{"url":"http://a","clientCredentials":{"tokenUrl":"http://id/t","clientIdFromEnv":"ID","clientSecret":"inline"}}}}`,
    /mcpServers.api.clientCredentials.clientSecret: unknown key/,
  );
});
