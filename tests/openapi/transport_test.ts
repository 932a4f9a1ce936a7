/** The exchange runs in a child whose network permission is exactly the base URL's host:port. */

import assert from "node:assert/strict";
import { ExchangeTransport, hostPortOf } from "../../src/openapi/transport.ts";
import { context, json, serve } from "./_fixtures.ts";

Deno.test("hostPortOf() makes the scheme's default port explicit", () => {
  assert.equal(hostPortOf(new URL("http://example.test/api")), "example.test:80");
  assert.equal(hostPortOf(new URL("https://example.test/api")), "example.test:443");
  assert.equal(hostPortOf(new URL("http://[::1]:8080/")), "[::1]:8080");
});

Deno.test("ExchangeTransport: the sandboxed child reaches its own host:port and no other", async () => {
  const allowed = serve(() => json({ ok: 1 }));
  const other = serve(() => json({ ok: 2 }));
  const transport = new ExchangeTransport();
  const sandbox = { name: "openapi_sandbox_test", net: hostPortOf(allowed.url) };
  const exchange = (server: typeof allowed) => ({
    method: "GET",
    url: new URL("/x", server.url).href,
    headers: [],
    baseUrl: server.url.href,
    timeoutMs: 10_000,
    maxBytes: 1_024,
  });
  try {
    assert.deepEqual(await transport.exchange(sandbox, exchange(allowed), context()), {
      ok: true,
      text: '{"ok":1}',
    });
    // Even with a base URL that would allow it, the process has no permission for another port.
    const denied = await transport.exchange(sandbox, exchange(other), context());
    assert.equal(denied.ok, false);
    assert.match(!denied.ok ? denied.message : "", /Requires net access to "127\.0\.0\.1:\d+"/);
    assert.equal(other.seen.length, 0);
  } finally {
    await transport.close();
    await allowed.close();
    await other.close();
  }
});

Deno.test("loadOpenApiTools(): two APIs with long names that share a prefix each get their own sandbox", async () => {
  const { loadOpenApiTools, parseOpenApiSection } = await import("../../src/openapi/mod.ts");
  const first = serve(() => json({ from: "first" }));
  const second = serve(() => json({ from: "second" }));
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/a.yaml`,
    "openapi: 3.0.3\npaths:\n  /x:\n    get:\n      operationId: getX\n      responses: {}\n",
  );
  await Deno.writeTextFile(
    `${dir}/b.yaml`,
    "openapi: 3.0.3\npaths:\n  /y:\n    get:\n      operationId: getY\n      responses: {}\n",
  );
  const long = "a".repeat(63);
  const source = await loadOpenApiTools(parseOpenApiSection({
    [`${long}1`]: { spec: "a.yaml", baseUrl: first.url.href },
    [`${long}2`]: { spec: "b.yaml", baseUrl: second.url.href },
  }, `${dir}/magi-tools.jsonc`));
  try {
    const [getX, getY] = source.tools;
    assert.equal(await getX!.run({}, context()), '{"from":"first"}');
    assert.equal(await getY!.run({}, context()), '{"from":"second"}');
    assert.equal(first.seen.length, 1);
    assert.equal(second.seen.length, 1);
  } finally {
    await source.close();
    await first.close();
    await second.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ExchangeTransport({ inline: true }) runs the exchange in the host with the same rules (the Node.js path)", async () => {
  const server = serve((req) =>
    req.url.pathname === "/away"
      ? new Response(null, { status: 302, headers: { location: "http://127.0.0.2:1/x" } })
      : json({ auth: req.headers.get("x-key") })
  );
  const transport = new ExchangeTransport({ inline: true });
  const sandbox = { name: "openapi_inline_test", net: hostPortOf(server.url) };
  const exchange = (path: string) => ({
    method: "GET",
    url: new URL(path, server.url).href,
    headers: [],
    baseUrl: server.url.href,
    timeoutMs: 10_000,
    maxBytes: 1_024,
    auth: { header: "x-key", value: "k-123", secret: "k-123" },
  });
  try {
    assert.deepEqual(await transport.exchange(sandbox, exchange("/x"), context()), {
      ok: true,
      text: '{"auth":"[redacted]"}',
    });
    const away = await transport.exchange(sandbox, exchange("/away"), context());
    assert.equal(away.ok ? "" : away.code, "http_302");
  } finally {
    await transport.close();
    await server.close();
  }
});
