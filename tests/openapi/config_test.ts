import assert from "node:assert/strict";
import { OpenApiError, parseOpenApiSection } from "../../src/openapi/mod.ts";

const FILE = "/w/magi-tools.jsonc";

function failure(section: unknown): OpenApiError {
  try {
    parseOpenApiSection(section, FILE);
  } catch (error) {
    assert.ok(error instanceof OpenApiError, String(error));
    return error;
  }
  assert.fail("no error");
}

Deno.test("parseOpenApiSection() resolves spec paths against the config file and fills defaults", () => {
  const [local, remote] = parseOpenApiSection({
    tickets: {
      spec: "specs/tickets.yaml",
      baseUrl: "http://127.0.0.1:8080/api",
      auth: { header: "Authorization", valueFromEnv: "TICKETS_TOKEN", prefix: "Bearer " },
      include: ["getTicket", "tickets/*"],
      effects: { closeTicket: "read" },
      timeoutMs: 5_000,
    },
    pets: { spec: "https://example.test/openapi.json" },
  }, FILE);
  assert.equal(local!.specLocation, "/w/specs/tickets.yaml");
  assert.deepEqual(local!.auth, {
    header: "Authorization",
    valueFromEnv: "TICKETS_TOKEN",
    prefix: "Bearer ",
  });
  assert.equal(local!.timeoutMs, 5_000);
  assert.deepEqual(local!.effects, { closeTicket: "read" });
  assert.equal(remote!.specLocation, "https://example.test/openapi.json");
  assert.equal(remote!.timeoutMs, 10_000);
  assert.equal(remote!.auth, undefined);
  assert.deepEqual(remote!.effects, {});
});

Deno.test("parseOpenApiSection() names the config file and key path of every mistake", () => {
  const cases: [unknown, string, RegExp][] = [
    [[], "openapi", /must be an object/],
    [{ "1x": { spec: "a" } }, "openapi.1x", /API name must match/],
    [{ t: {} }, "openapi.t.spec", /required/],
    [{ t: { spec: "a", base: "x" } }, "openapi.t", /unknown key base/],
    [{ t: { spec: "a", baseUrl: "ftp://x" } }, "openapi.t.baseUrl", /http\(s\) URL/],
    [{ t: { spec: "a", baseUrl: "http://u:p@x/" } }, "openapi.t.baseUrl", /without credentials/],
    [
      { t: { spec: "a", auth: { header: "Bad Header", valueFromEnv: "T" } } },
      "openapi.t.auth.header",
      /header name/,
    ],
    [
      { t: { spec: "a", auth: { header: "X", valueFromEnv: "T-1" } } },
      "openapi.t.auth.valueFromEnv",
      /environment variable name/,
    ],
    [
      { t: { spec: "a", auth: { header: "X", valueFromEnv: "T", prefix: "a\nb" } } },
      "openapi.t.auth.prefix",
      /CR, LF/,
    ],
    [{ t: { spec: "a", include: [] } }, "openapi.t.include", /must not be empty/],
    [{ t: { spec: "a", include: ["ok", ""] } }, "openapi.t.include[1]", /must not be empty/],
    [{ t: { spec: "a", effects: { x: "delete" } } }, "openapi.t.effects.x", /read|write/],
    [{ t: { spec: "a", timeoutMs: 10 } }, "openapi.t.timeoutMs", /1000/],
  ];
  for (const [section, at, reason] of cases) {
    const error = failure(section);
    assert.equal(error.file, FILE);
    assert.equal(error.at, at, JSON.stringify(section));
    assert.match(error.reason, reason, JSON.stringify(section));
    assert.ok(error.message.startsWith(`${FILE}: ${at}: `));
  }
});

Deno.test("magi-tools.jsonc: the openapi section is parsed with the config, its mistakes are ConfigErrors", async () => {
  const { ConfigError, parseConfigText } = await import("../../src/config/mod.ts");
  const config = parseConfigText(
    '{ // comment\n "openapi": { "t": { "spec": "specs/t.yaml", "include": ["a"], } } }',
    { file: "conf/magi-tools.jsonc" },
  );
  assert.equal(config.openapi.length, 1);
  assert.equal(config.openapi[0]!.specLocation, "conf/specs/t.yaml");
  assert.deepEqual(config.mcpServers, []);
  assert.throws(
    () =>
      parseConfigText('{"openapi": {"t": {"spec": "x", "timeoutMs": "10"}}}', { file: "m.jsonc" }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /^m\.jsonc: openapi\.t\.timeoutMs: /);
      return true;
    },
  );
});

Deno.test("parseOpenApiSection(): clientCredentials is checked, and never goes with auth", () => {
  const [api] = parseOpenApiSection({
    t: {
      spec: "t.yaml",
      clientCredentials: { clientIdFromEnv: "T_ID", clientSecretFromEnv: "T_SECRET" },
    },
  }, FILE);
  assert.deepEqual(api!.clientCredentials, {
    clientIdFromEnv: "T_ID",
    clientSecretFromEnv: "T_SECRET",
    scopes: [],
  });
  const cc = { clientIdFromEnv: "T_ID", clientSecretFromEnv: "T_SECRET" };
  const cases: [unknown, string][] = [
    [
      { spec: "t.yaml", auth: { header: "X-Key", valueFromEnv: "K" }, clientCredentials: cc },
      "/w/magi-tools.jsonc: openapi.t.clientCredentials: cannot be used with auth",
    ],
    [
      { spec: "t.yaml", clientCredentials: { ...cc, tokenUrl: "ftp://id.example/token" } },
      "/w/magi-tools.jsonc: openapi.t.clientCredentials.tokenUrl: must be an http(s) URL without credentials, query or fragment",
    ],
    [
      { spec: "t.yaml", clientCredentials: { ...cc, scopes: ["a b"] } },
      "/w/magi-tools.jsonc: openapi.t.clientCredentials.scopes[0]: must be an OAuth scope token",
    ],
    [
      { spec: "t.yaml", clientCredentials: { clientIdFromEnv: "T_ID" } },
      "/w/magi-tools.jsonc: openapi.t.clientCredentials.clientSecretFromEnv: required (string)",
    ],
    [
      { spec: "t.yaml", clientCredentials: { ...cc, secret: "inline" } },
      "/w/magi-tools.jsonc: openapi.t.clientCredentials: unknown key secret",
    ],
  ];
  for (const [entry, message] of cases) assert.equal(failure({ t: entry }).message, message);
});
