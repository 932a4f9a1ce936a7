import assert from "node:assert/strict";
import { join } from "node:path";
import { checkDestination, trustFromUser, UnapprovedConfigError } from "../../src/config/trust.ts";
import { ConfigError, loadConfig } from "../../src/config/mod.ts";
import { configKey, hashConfigText, writeTrustStore } from "../../src/config/trust_store.ts";

const CONFIG = '{"mcpServers":{"fx":{"command":"fx-server","args":["${ROOT}"]}}}';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-tools-approval-" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const noEnv = () => undefined;

Deno.test("trustFromUser(): MAGI_TOOLS_TRUST_CONFIG=1, else the store's hash of this path", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "magi-tools.jsonc");
    const store = join(dir, "store", "trusted-configs.json");
    const request = { path, text: CONFIG };
    assert.deepEqual(await trustFromUser(request, { env: noEnv, storePath: store }), {
      approved: false,
      reason: "not trusted yet",
    });
    const ci = (name: string) => name === "MAGI_TOOLS_TRUST_CONFIG" ? "1" : undefined;
    assert.deepEqual(await trustFromUser(request, { env: ci, storePath: null }), {
      approved: true,
      by: "env",
    });
    await writeTrustStore(store, {
      [await configKey(path)]: { sha256: await hashConfigText(CONFIG), trustedAt: "t" },
    });
    assert.deepEqual(await trustFromUser(request, { env: noEnv, storePath: store }), {
      approved: true,
      by: "store",
    });
    assert.deepEqual(
      await trustFromUser({ path, text: CONFIG + " " }, { env: noEnv, storePath: store }),
      { approved: false, reason: "changed since you trusted it" },
    );
    // Another path with the same content is not trusted.
    assert.deepEqual(
      await trustFromUser({ path: join(dir, "sub", "magi-tools.jsonc"), text: CONFIG }, {
        env: noEnv,
        storePath: store,
      }),
      { approved: false, reason: "not trusted yet" },
    );
  });
});

Deno.test("trustFromUser() refuses, saying why, when the store is unknown or unreadable", async () => {
  await withDir(async (dir) => {
    const request = { path: join(dir, "magi-tools.jsonc"), text: CONFIG };
    const unknown = await trustFromUser(request, { env: noEnv, storePath: null });
    assert.equal(unknown.approved, false);
    assert.match(!unknown.approved ? unknown.reason : "", /may not read HOME or XDG_CONFIG_HOME/);
    const store = join(dir, "trusted-configs.json");
    await Deno.writeTextFile(store, "not json");
    const broken = await trustFromUser(request, { env: noEnv, storePath: store });
    assert.match(!broken.approved ? broken.reason : "", /Trust store is not JSON/);
  });
});

Deno.test("loadConfig() decides before reading any variable; --config and --mcp-config are not asked", async () => {
  const files: Record<string, string> = {
    "/p/magi-tools.jsonc": CONFIG,
    "/p/claude.json": '{"mcpServers":{"c":{"command":"c","args":["${ROOT}"]}}}',
  };
  const readFile = (path: string) => Promise.resolve(files[path] ?? null);
  const read: string[] = [];
  const env = (name: string) => {
    read.push(name);
    return "/root";
  };
  const asked: string[] = [];
  const refuse = (request: { path: string }) => {
    asked.push(request.path);
    return Promise.resolve({ approved: false as const, reason: "not trusted yet" });
  };
  await assert.rejects(loadConfig({ cwd: "/p", readFile, env, trustConfig: refuse }), (error) => {
    assert.ok(error instanceof UnapprovedConfigError && error instanceof ConfigError);
    assert.match(
      error.message,
      /^Project config is not approved: \/p\/magi-tools\.jsonc: not trusted yet\n/,
    );
    assert.match(error.message, /\n {2}starts fx: fx-server '\$\{ROOT\}'\n/);
    assert.match(error.message, /\n {2}reads \$ROOT \(mcpServers\.fx\.args\[0\]\)\n/);
    return true;
  });
  assert.deepEqual(
    [asked, read],
    [["/p/magi-tools.jsonc"], []],
    "no variable read before approval",
  );
  const named = await loadConfig({
    cwd: "/p",
    readFile,
    env,
    config: "magi-tools.jsonc",
    mcpConfigs: ["claude.json"],
    trustConfig: refuse,
  });
  assert.deepEqual(named.mcpServers.map((server) => server.name), ["fx", "c"]);
  assert.deepEqual(asked, ["/p/magi-tools.jsonc"], "named files are not asked about");
  // Approved: expanded as before.
  const approved = await loadConfig({
    cwd: "/p",
    readFile,
    env,
    trustConfig: () => Promise.resolve({ approved: true, by: "store" }),
  });
  const transport = approved.mcpServers[0]!.transport;
  assert.deepEqual(transport.kind === "stdio" ? transport.args : [], ["/root"]);
});

Deno.test("loadConfig() asks nothing of a config without commands or variables, or invalid JSONC", async () => {
  const files: Record<string, string> = {
    "/p/magi-tools.jsonc": '{"mcpServers":{"api":{"url":"https://example.com/mcp"}}}',
    "/q/magi-tools.jsonc": '{"mcpServers":',
  };
  const readFile = (path: string) => Promise.resolve(files[path] ?? null);
  const refuse = () => Promise.reject(new Error("asked"));
  const config = await loadConfig({ cwd: "/p", readFile, trustConfig: refuse });
  assert.deepEqual(config.mcpServers.map((server) => server.name), ["api"]);
  await assert.rejects(
    loadConfig({ cwd: "/q", readFile, trustConfig: refuse }),
    /magi-tools\.jsonc:1:15: invalid JSONC/,
  );
});

Deno.test("UnapprovedConfigError shows control characters of the project's text as escapes", () => {
  const error = new UnapprovedConfigError("/p/magi-tools.jsonc", {
    commands: [{ server: "x", command: "sh\x1b]52;c;AAAA\x07", args: ["\x9b2J"] }],
    variables: [],
  }, "not trusted yet");
  assert.ok(![..."\x1b\x07\x9b"].some((char) => error.message.includes(char)), error.message);
  assert.match(error.message, /starts x: 'sh\\x1b\]52;c;AAAA\\x07' '\\x9b2J'/);
});

Deno.test("checkDestination() passes the recorded destination and refuses another or none, saying both", () => {
  const pins = {
    file: "/p/magi-tools.jsonc",
    needs: { commands: [], variables: [{ name: "T", at: "openapi.api.auth.valueFromEnv" }] },
    destinations: { "openapi.api": "http://127.0.0.1:1/" },
  };
  checkDestination(pins, "openapi.api", "http://127.0.0.1:1/", "the first servers entry of s.yaml");
  assert.throws(
    () =>
      checkDestination(
        pins,
        "openapi.api",
        "http://127.0.0.1:2/",
        "the first servers entry of s.yaml",
      ),
    (error: Error) =>
      error instanceof UnapprovedConfigError &&
      error.message.startsWith(
        "Project config is not approved: /p/magi-tools.jsonc: changed since you trusted it: openapi.api would send its secret to http://127.0.0.1:2/ (the first servers entry of s.yaml); trusted: http://127.0.0.1:1/\n",
      ),
  );
  assert.throws(
    () => checkDestination(pins, "openapi.other", "http://127.0.0.1:1/", "x"),
    /openapi\.other would send its secret to http:\/\/127\.0\.0\.1:1\/ \(x\); no destination was recorded for it/,
  );
});
