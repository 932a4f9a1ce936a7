/**
 * Attack family: another local process drives `magi-tools mcp --http` (issue 23 item 6). Any
 * local process (a sandboxed tool with `net` to loopback included) could `initialize` and
 * `tools/call` a write tool with the server's permissions. Now every request needs the
 * server's bearer token: without it the answer is 401 with `WWW-Authenticate: Bearer`, no
 * session is created and no tool runs. The legitimate use next to it: an SDK client with the
 * header lists and calls tools; the token file is `0600` in the state directory and removed at
 * stop; `--token` and `MAGI_TOOLS_MCP_TOKEN` give the token; the Host/Origin checks still hold.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ROOT } from "../e2e/_cli.ts";
import { mcpArgs } from "../mcp/_stdio.ts";
import { rawPost, startMcpHttp } from "../mcp/_http.ts";

const TOOLS = `${ROOT}tests/security/fixtures/mcp_door`;

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "attacker", version: "1" },
  },
};

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("mcp --http: a local process without the token cannot initialize or call a write tool", async () => {
  // Default flags, so the same test runs against the old code (where it succeeds as an attack).
  const server = await startMcpHttp({ tools: TOOLS });
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-mcp-auth-" });
  const marker = `${dir}/pwned`;
  try {
    for (
      const headers of [{}, { authorization: "Bearer wrong-token-wrong-token" }, {
        authorization: `Basic ${server.token}`,
      }]
    ) {
      const init = await post(server.url, INITIALIZE, headers);
      assert.equal(init.status, 401, JSON.stringify(headers));
      assert.match(init.headers.get("www-authenticate") ?? "", /^Bearer\b/);
      assert.equal(init.headers.get("mcp-session-id"), null, "no session was created");
      assert.match(await init.text(), /Unauthorized/);
    }
    // A call straight away, with a made-up session or none, is refused the same way.
    const call = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "write_marker", arguments: { path: marker, text: "x" } },
    };
    for (const headers of [{}, { "mcp-session-id": crypto.randomUUID() }]) {
      const response = await post(server.url, call, headers);
      assert.equal(response.status, 401);
      await response.body?.cancel();
    }
    assert.equal(await exists(marker), false, "the write tool did not run");
    assert.match(server.token ?? "", /^[0-9a-f]{64}$/, server.stderr());

    // The legitimate client: the SDK with the header.
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${server.token}` } },
      }),
    );
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool: { name: string }) => tool.name).sort(), [
      "echo_read",
      "write_marker",
    ]);
    const result = await client.callTool({ name: "echo_read", arguments: { text: "hi" } });
    assert.equal(result.isError, undefined, JSON.stringify(result));
    assert.deepEqual(result.content, [{ type: "text", text: "echo: hi" }]);
    await client.close();
  } finally {
    assert.equal(await server.stop(), 0, server.stderr());
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("mcp --http: the generated token is printed once and written 0600 under the state directory, removed at stop", async () => {
  const server = await startMcpHttp({ tools: TOOLS });
  const file = `${server.stateHome}/magi-tools/mcp/http-${server.port}.token`;
  let stopped = false;
  try {
    assert.equal(server.stderr().split(server.token!).length - 1, 1, "printed once");
    assert.ok(server.stderr().includes(file), `the path is printed: ${server.stderr()}`);
    assert.equal(await Deno.readTextFile(file), `${server.token}\n`);
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(`${server.stateHome}/magi-tools/mcp`)).mode! & 0o777, 0o700);
    }
    assert.equal(await server.stop(), 0);
    stopped = true;
  } finally {
    if (!stopped) await server.stop();
  }
  assert.equal(await exists(file), false, "removed at stop");
});

Deno.test("mcp --http: --token and MAGI_TOOLS_MCP_TOKEN give the token; it is not printed or written", async () => {
  const given = "given-token-0123456789abcdef";
  for (const how of ["flag", "env"] as const) {
    const server = await startMcpHttp({
      tools: TOOLS,
      ...(how === "flag" ? { args: ["--token", given] } : { env: { MAGI_TOOLS_MCP_TOKEN: given } }),
    });
    try {
      assert.equal(server.token, undefined);
      assert.ok(!server.stderr().includes(given), server.stderr());
      assert.match(
        server.stderr(),
        how === "flag" ? /<the token of --token>/ : /<the token of MAGI_TOOLS_MCP_TOKEN>/,
      );
      assert.equal(await exists(`${server.stateHome}/magi-tools/mcp`), false, "no file");
      assert.equal((await post(server.url, INITIALIZE)).status, 401);
      const ok = await post(server.url, INITIALIZE, { authorization: `Bearer ${given}` });
      assert.equal(ok.status, 200, how);
      assert.ok(ok.headers.get("mcp-session-id"));
      await ok.body?.cancel();
    } finally {
      assert.equal(await server.stop(), 0, server.stderr());
    }
  }
});

Deno.test("mcp --http: with the token, a foreign Host or Origin is still refused 403", async () => {
  const server = await startMcpHttp({ tools: TOOLS });
  try {
    const auth = `Bearer ${server.token}`;
    assert.match(
      await rawPost(server.url, INITIALIZE, { host: "evil.example.com", auth }),
      /^HTTP\/1\.1 403/,
    );
    assert.match(
      await rawPost(server.url, INITIALIZE, { origin: "http://evil.example.com", auth }),
      /^HTTP\/1\.1 403/,
    );
    assert.match(await rawPost(server.url, INITIALIZE, { auth }), /^HTTP\/1\.1 200/);
  } finally {
    assert.equal(await server.stop(), 0);
  }
});

Deno.test("mcp --http: a malformed MAGI_TOOLS_MCP_TOKEN is exit 2 naming the variable", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: mcpArgs(TOOLS, ["--http", "0"]),
    env: { MAGI_TOOLS_MCP_TOKEN: "short" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // A server that ignored the variable would serve until stopped: a failure, never a hang.
  const kill = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const output = await child.output();
  clearTimeout(kill);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 2, stderr);
  assert.match(stderr, /Environment variable MAGI_TOOLS_MCP_TOKEN must be 16 to 512 characters/);
  assert.doesNotMatch(stderr, /\n\s+at /, "no stack trace");
});

Deno.test("mcp --http: a process tool whose read scope covers the state directory (token files) is refused at load; a narrower one loads", async () => {
  const { cli } = await import("./_scopes.ts");
  const artifacts = `${ROOT}tests/.artifacts`;
  await Deno.mkdir(artifacts, { recursive: true });
  const path = await Deno.makeTempDir({ dir: artifacts, prefix: "state-scope-" });
  const dir = { path, remove: () => Deno.remove(path, { recursive: true }).catch(() => {}) };
  const state = join(dir.path, "..", `state-${crypto.randomUUID()}`);
  try {
    await Deno.mkdir(join(dir.path, "tools"));
    await Deno.writeTextFile(join(dir.path, "magi-tools.jsonc"), "{}\n");
    await Deno.mkdir(state, { recursive: true });
    const reader = (scope: string) =>
      `import { z } from "zod";
import { defineTool } from "@magi/tools";
export default defineTool({
  name: "peek",
  description: "Reads a file.",
  input: z.strictObject({ path: z.string() }),
  effect: "read",
  permissions: { read: [${JSON.stringify(scope)}] },
  run: ({ path }) => Deno.readTextFileSync(path),
});
`;
    const env = { XDG_STATE_HOME: state };
    await Deno.writeTextFile(join(dir.path, "tools", "peek.ts"), reader(state));
    const refused = await cli(["tools"], { cwd: dir.path, input: "", env });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /Tool scope overlaps a host input: .*tools\/peek\.ts/);
    assert.match(refused.stderr, /contains the host state directory \(tokens\)/);
    assert.match(refused.stderr, /mcp --http bearer tokens/);
    await Deno.mkdir(join(dir.path, "data"));
    await Deno.writeTextFile(join(dir.path, "tools", "peek.ts"), reader("data"));
    const ok = await cli(["tools"], { cwd: dir.path, input: "", env });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /peek/);
  } finally {
    await dir.remove();
    await Deno.remove(state, { recursive: true }).catch(() => {});
  }
});
