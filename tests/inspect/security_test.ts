/** The inspector refuses requests without the token, from a foreign Origin, or for a rebinding Host. */
import assert from "node:assert/strict";
import { checkRequest, newToken } from "../../src/inspect/security.ts";
import { rawStatus, startInspector } from "./_inspector.ts";
import { ROOT, runCli } from "../e2e/_cli.ts";

Deno.test("checkRequest() lets only token-bearing same-origin requests to the bound host pass", () => {
  const gate = { token: "a".repeat(64), port: 4321 };
  const req = (path: string, headers: Record<string, string> = {}) =>
    checkRequest(new Request(`http://127.0.0.1:4321${path}`, { headers }), gate);
  assert.equal(req(`/?token=${gate.token}`), null);
  assert.equal(req("/api/tools", { authorization: `Bearer ${gate.token}` }), null);
  assert.equal(req(`/?token=${gate.token}`, { origin: "http://localhost:4321" }), null);
  assert.equal(req("/")?.status, 401);
  assert.equal(req(`/?token=${"b".repeat(64)}`)?.status, 401);
  assert.equal(req(`/?token=${gate.token.slice(1)}`)?.status, 401);
  assert.equal(req(`/?token=${gate.token}`, { origin: "http://evil.example" })?.status, 403);
  assert.equal(req(`/?token=${gate.token}`, { origin: "http://127.0.0.1:9999" })?.status, 403);
  assert.equal(req(`/?token=${gate.token}`, { origin: "null" })?.status, 403);
  assert.equal(req(`/?token=${gate.token}`, { "sec-fetch-site": "cross-site" })?.status, 403);
  assert.equal(req(`/?token=${gate.token}`, { host: "evil.example:4321" })?.status, 421);
  assert.equal(req(`/?token=${gate.token}`, { host: "127.0.0.1:4322" })?.status, 421);
  assert.match(newToken(), /^[0-9a-f]{64}$/);
  assert.notEqual(newToken(), newToken());
});

Deno.test("inspect over HTTP: no token, foreign Origin or rebinding Host are refused", async () => {
  const inspector = await startInspector();
  try {
    const { base, token, port } = inspector;
    // Without the token: the page, the API and the event stream.
    for (const path of ["/", "/api/tools", "/api/events", "/api/sessions"]) {
      const res = await fetch(`${base}${path}`);
      await res.body?.cancel();
      assert.equal(res.status, 401, path);
    }
    const post = await fetch(`${base}/api/call`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "slow", arguments: { ms: 1 } }),
    });
    await post.body?.cancel();
    assert.equal(post.status, 401);
    // With the token but a foreign Origin (a web page the user visits).
    const foreign = await fetch(`${base}/api/call`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        origin: "https://evil.example",
      },
      body: JSON.stringify({ name: "slow", arguments: { ms: 1 } }),
    });
    await foreign.body?.cancel();
    assert.equal(foreign.status, 403);
    // DNS rebinding: the attacker's host name resolved to 127.0.0.1.
    assert.equal(await rawStatus(port, `/?token=${token}`, { Host: `evil.example:${port}` }), 421);
    assert.equal(await rawStatus(port, `/api/events?token=${token}`, { Host: "attacker" }), 421);
    // The right request passes, and the page is served with a strict CSP.
    assert.equal(
      await rawStatus(port, `/api/tools?token=${token}`, { Host: `127.0.0.1:${port}` }),
      200,
    );
    const page = await fetch(inspector.url);
    const csp = page.headers.get("content-security-policy") ?? "";
    await page.body?.cancel();
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");
    // No endpoint takes a command: an unknown path is a 404, not a shell.
    const unknown = await fetch(`${base}/api/exec?token=${token}`, { method: "POST" });
    await unknown.body?.cancel();
    assert.equal(unknown.status, 404);
  } finally {
    assert.equal(await inspector.stop(), 130);
  }
});

Deno.test("inspect API: a tool call through the executor, with its log; bad input is a 400", async () => {
  const inspector = await startInspector();
  try {
    const call = (body: unknown) =>
      fetch(`${inspector.base}/api/call`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${inspector.token}` },
        body: JSON.stringify(body),
      });
    const args = {
      title: "t",
      count: 2,
      loud: true,
      color: "red",
      tags: ["a"],
      owner: { name: "n" },
    };
    const ok = await call({ name: "form_echo", arguments: args });
    assert.equal(ok.status, 200);
    const record = await ok.json();
    assert.equal(record.outcome, "success");
    assert.deepEqual(JSON.parse(record.text), args);
    assert.match(record.log, /form_echo called/);
    const invalid = await (await call({ name: "form_echo", arguments: { title: 1 } })).json();
    assert.equal(invalid.outcome, "error");
    assert.equal(invalid.error_code, "invalid_arguments");
    const unknown = await call({ name: "nope", arguments: {} });
    assert.equal(unknown.status, 400);
    assert.match((await unknown.json()).error, /Unknown tool: nope/);
    const turn = (body: unknown) =>
      fetch(`${inspector.base}/api/turn`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${inspector.token}` },
        body: JSON.stringify(body),
      });
    const blank = await turn({ prompt: "  " });
    assert.equal(blank.status, 400);
    assert.match((await blank.json()).error, /non-blank/);
    const huge = await turn({ prompt: "x".repeat(16_385) });
    assert.equal(huge.status, 400);
    assert.match((await huge.json()).error, /exceeds 16384 UTF-8 bytes/);
    const approval = await fetch(`${inspector.base}/api/approval`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${inspector.token}` },
      body: JSON.stringify({ approval_id: "a1", allow: true }),
    });
    assert.equal(approval.status, 404);
    await approval.body?.cancel();
  } finally {
    assert.equal(await inspector.stop(), 130);
  }
});

Deno.test("inspect: a missing tool directory or a taken port is a usage error (exit 2)", async () => {
  const missing = await runCli(["inspect", "--tools", "/nonexistent/tools"], { raw: true });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Option --tools is not a directory: \/nonexistent\/tools/);
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const port = (taken.addr as Deno.NetAddr).port;
    const busy = await runCli(["inspect", "--tools", `${ROOT}tools`, "--port", String(port)], {
      raw: true,
    });
    assert.equal(busy.code, 2, busy.stderr);
    assert.match(busy.stderr, new RegExp(`Option --port is in use: ${port}`));
  } finally {
    taken.close();
  }
});
