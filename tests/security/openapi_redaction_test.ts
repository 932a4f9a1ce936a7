/**
 * Attack family: an API that echoes the auth header back in another spelling
 * (issue 23 item 9). Through the CLI (`call --json` and `run` against the
 * reference backend, i.e. what the model is handed), a loopback API echoes
 * `Authorization` percent-encoded (upper- and lower-case hex), JSON-escaped,
 * base64 (standard and URL-safe, of the whole header value), decoded from
 * HTTP Basic, and in a non-2xx body with the token straddling the 1,024-byte
 * error excerpt's cut. No spelling of the token may come back; the legitimate
 * answer next to it (an ordinary body, an ordinary error excerpt) is unchanged.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../e2e/_cli.ts";
import { serve } from "../openapi/_fixtures.ts";

/** Has `/` (JSON may escape it), `+` and `!` (percent-encoding differs); 64 characters. */
const TOKEN = "tok_Ab9/+x~Q.z!q*7Zk-LmN_opRsT-uvWx0123_AbCdEfGhIjKlMnOpQrStUvWx";
const BASIC_USER = "ada";
const BASIC_PASSWORD = "correct horse battery staple";
const BASIC = btoa(`${BASIC_USER}:${BASIC_PASSWORD}`);

const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const base64Url = (text: string) =>
  btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

/** Every spelling the API below uses, and the raw token; for base64, the part past `Bearer `. */
function spellings(): string[] {
  const header = `Bearer ${TOKEN}`;
  return [
    TOKEN,
    encodeURIComponent(TOKEN),
    lowerHex(encodeURIComponent(TOKEN)),
    JSON.stringify(TOKEN).slice(1, -1).replaceAll("/", "\\/"),
    btoa(header).slice(10),
    base64Url(header).slice(10),
    btoa(TOKEN),
    BASIC,
    `${BASIC_USER}:${BASIC_PASSWORD}`,
    BASIC_PASSWORD,
  ];
}

/** The first 8-character piece of any spelling of the secret found in `text`, or null. */
function leak(text: string): string | null {
  for (const form of spellings()) {
    for (let i = 0; i + 8 <= form.length; i++) {
      const piece = form.slice(i, i + 8);
      if (text.includes(piece)) return `${piece} (of ${form})`;
    }
  }
  return null;
}

/** The API: `/echo/{how}` echoes the auth header; `/fail/{at}` fails with it at byte `at`. */
function api() {
  return serve((req) => {
    const header = req.headers.get("authorization") ?? "";
    const [, kind, how] = req.url.pathname.split("/");
    if (kind === "echo") {
      const token = header.replace(/^(Bearer|Basic) /, "");
      const body = how === "percent"
        ? `you sent ${encodeURIComponent(header)}`
        : how === "percent_lower"
        ? `you sent ${lowerHex(encodeURIComponent(header))}`
        : how === "json"
        ? JSON.stringify({ authorization: header }).replaceAll("/", "\\/")
        : how === "json_unicode"
        ? `{"authorization":"${
          [...header].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")
        }"}`
        : how === "base64"
        ? `you sent ${btoa(header)}`
        : how === "base64url"
        ? `you sent ${base64Url(header)}`
        : how === "basic"
        ? `user and password: ${atob(token)}; password: ${atob(token).split(":")[1]}`
        : how === "plain"
        ? "an ordinary answer: Ä ✓, 100% fine"
        : `unknown ${how}`;
      return new Response(body, { headers: { "content-type": "text/plain" } });
    }
    if (kind === "fail") {
      const at = Number(how);
      const body = "e".repeat(at) + header + "f".repeat(3_000);
      return new Response(body, { status: 400, headers: { "content-type": "text/plain" } });
    }
    return new Response("no such path", { status: 404 });
  });
}

const SPEC = {
  openapi: "3.0.3",
  info: { title: "Echo", version: "1" },
  paths: {
    "/echo/{how}": {
      get: {
        operationId: "echo",
        parameters: [{ name: "how", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "the echo" } },
      },
    },
    "/fail/{at}": {
      get: {
        operationId: "fail",
        parameters: [{ name: "at", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "400": { description: "a failure" } },
      },
    },
  },
};

async function setup() {
  const server = api();
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-redaction-" });
  await Deno.mkdir(join(dir, "tools"));
  await Deno.writeTextFile(join(dir, "echo.json"), JSON.stringify(SPEC));
  const entry = (prefix: string, env: string) => ({
    spec: join(dir, "echo.json"),
    baseUrl: server.url.href,
    auth: { header: "Authorization", valueFromEnv: env, prefix },
  });
  await Deno.writeTextFile(
    join(dir, "magi-tools.jsonc"),
    JSON.stringify({ openapi: { bearer: entry("Bearer ", "ECHO_TOKEN") } }),
  );
  await Deno.writeTextFile(
    join(dir, "basic.jsonc"),
    JSON.stringify({ openapi: { basic: entry("Basic ", "ECHO_BASIC") } }),
  );
  return {
    dir,
    async close() {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

interface CallJson {
  outcome: string;
  error_code: string | null;
  text: string;
}

async function call(
  dir: string,
  config: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallJson & { stderr: string; stdout: string }> {
  const withArgs = await runCli(
    [
      "call",
      "--json",
      "--config",
      join(dir, config),
      "--tools",
      join(dir, "tools"),
      tool,
      JSON.stringify(args),
    ],
    { raw: true, cwd: dir, env: { ECHO_TOKEN: TOKEN, ECHO_BASIC: BASIC } },
  );
  const record = JSON.parse(withArgs.stdout) as CallJson;
  return { ...record, stderr: withArgs.stderr, stdout: withArgs.stdout };
}

Deno.test("OpenAPI: the auth header echoed in any spelling comes back redacted", async () => {
  const env = await setup();
  try {
    for (
      const how of ["percent", "percent_lower", "json", "json_unicode", "base64", "base64url"]
    ) {
      const result = await call(env.dir, "magi-tools.jsonc", "echo", { how });
      assert.equal(result.outcome, "success", `${how}: ${result.stderr}`);
      assert.equal(leak(result.stdout + result.stderr), null, `${how}: ${result.text}`);
      assert.ok(result.text.includes("[redacted]"), `${how}: ${result.text}`);
    }
    const basic = await call(env.dir, "basic.jsonc", "echo", { how: "basic" });
    assert.equal(basic.outcome, "success", basic.stderr);
    assert.equal(leak(basic.stdout + basic.stderr), null, basic.text);
    assert.equal(basic.text, "user and password: [redacted]; password: [redacted]");
    // The legitimate answer next to it is unchanged.
    const plain = await call(env.dir, "magi-tools.jsonc", "echo", { how: "plain" });
    assert.equal(plain.text, "an ordinary answer: Ä ✓, 100% fine");
  } finally {
    await env.close();
  }
});

Deno.test("OpenAPI: a token straddling the 1,024-byte error excerpt's cut leaves no prefix", async () => {
  const env = await setup();
  try {
    assert.equal(TOKEN.length, 64);
    // The token starts so that the body's cut at 1,024 bytes falls inside it, at several places
    // (3 characters in, the middle, all but one character before the cut, and 34 characters in:
    // the model's message, cut again at 1,024 bytes after the status line, shows bytes up to
    // about 999 of the body), and well before the cut.
    for (const start of [1_024 - 3, 1_024 - 32, 1_024 - 63, 990, 207]) {
      const at = start - "Bearer ".length;
      const result = await call(env.dir, "magi-tools.jsonc", "fail", { at });
      assert.equal(result.outcome, "error", result.stderr);
      assert.equal(result.error_code, "http_400");
      assert.equal(leak(result.stdout + result.stderr), null, `at ${at}: ${result.text}`);
      assert.ok(result.text.startsWith(`HTTP 400 Bad Request: ${"e".repeat(Math.min(at, 50))}`));
      assert.ok(result.text.endsWith("…"), "the cut is marked");
      assert.ok(new TextEncoder().encode(result.text).length <= 1_024 + 40, "still bounded");
      if (start === 207) {
        // The legitimate excerpt: the body's start, cut at 1,024 bytes.
        assert.ok(result.text.includes(`${"e".repeat(200)}Bearer [redacted]fff`), result.text);
      }
    }
  } finally {
    await env.close();
  }
});

Deno.test("run: the model is handed no spelling of the token either", async () => {
  const env = await setup();
  try {
    const result = await runCli(
      [
        "run",
        "--config",
        join(env.dir, "magi-tools.jsonc"),
        "--tools",
        join(env.dir, "tools"),
        'echo {"how":"percent"} then echo {"how":"base64"} then fail {"at":983}',
      ],
      { cwd: env.dir, env: { ECHO_TOKEN: TOKEN } },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(leak(result.stdout + result.stderr), null);
    const reply = result.records.find((r) => r.type === "message" && r.partial === false);
    assert.match(String(reply?.text), /echo → you sent Bearer(%20| )?\[redacted\]/);
    assert.match(String(reply?.text), /fail → error \(http_400\): HTTP 400 Bad Request: e+/);
  } finally {
    await env.close();
  }
});
