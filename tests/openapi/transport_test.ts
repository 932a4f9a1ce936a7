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
