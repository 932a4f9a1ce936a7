/** `call`: one tool through the executor, no backend (black box, the CLI as a child process). */
import assert from "node:assert/strict";
import { parseAuthorArgs } from "../../../src/cli/args/author_commands.ts";
import { UsageError } from "../../../src/errors/mod.ts";
import { DEV_CONFIG, FIXTURE_TOOLS, ROOT, runCli } from "../../e2e/_cli.ts";

const SANDBOX_TOOLS = `${ROOT}tests/e2e/fixtures/sandbox_tools`;
const CALL_TOOLS = `${ROOT}tests/cli/commands/fixtures/call_tools`;

/** Run `call` with `stdin` text piped in. */
async function callWithStdin(args: string[], stdin: string) {
  const { code, stdout, stderr } = await runCli(["call", ...args], { raw: true, input: stdin });
  return { code, stdout, stderr };
}

Deno.test("call prints the result text and exits 0", async () => {
  const result = await runCli(["call", "text_stats", '{"text":"a b\\nc"}'], { raw: true });
  assert.equal(result.code, 0, result.stderr);
  const value = JSON.parse(result.stdout);
  assert.equal(value.lines, 2);
  assert.equal(value.words, 3);
  assert.ok(result.stdout.endsWith("}\n"));
});

Deno.test("call --json prints one record with tool.result's fields and the parts", async () => {
  const result = await runCli(
    ["call", "big", '{"bytes":40000}', "--json", "--tools", FIXTURE_TOOLS],
    { raw: true },
  );
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 1);
  const record = JSON.parse(lines[0]!);
  assert.equal(record.type, "call.result");
  assert.equal(record.name, "big");
  assert.match(record.tool_id, /^[0-9a-f]{64}$/);
  assert.equal(record.outcome, "success");
  assert.equal(record.error_code, null);
  assert.equal(record.bytes, 40_000);
  // Split exactly as client.tool.result parts (16 KiB each at most).
  assert.equal(record.parts, 3);
  assert.equal(record.part_texts.length, 3);
  assert.equal(record.part_texts.join(""), record.text);
  assert.equal(record.text.length, 40_000);
  assert.equal(record.deadline_ms, 120_000);
  assert.equal(record.killed, false);
  assert.equal(record.abandoned, false);
  assert.equal(typeof record.duration_ms, "number");
});

Deno.test("call reads the arguments from stdin", async () => {
  const result = await callWithStdin(["text_stats", "--json"], '{"text":"one two"}\n');
  assert.equal(result.code, 0, result.stderr);
  const record = JSON.parse(result.stdout);
  assert.equal(JSON.parse(record.text).words, 2);
});

Deno.test("call: invalid arguments are a tool error (exit 1, code on stderr)", async () => {
  const result = await runCli(["call", "text_stats", '{"text":1}'], { raw: true });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /invalid_arguments: Invalid arguments: text/);
});

Deno.test("call: an unknown tool or bad JSON is a usage error (exit 2)", async () => {
  const unknown = await runCli(["call", "nope", "{}"], { raw: true });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown tool: nope \(tools: .*text_stats/);
  const bad = await runCli(["call", "text_stats", "{text"], { raw: true });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Arguments in the ARGS argument are not valid JSON/);
  const notObject = await runCli(["call", "text_stats", "[1]"], { raw: true });
  assert.equal(notObject.code, 2);
  assert.match(notObject.stderr, /Arguments must be a JSON object/);
  const broken = await runCli(
    ["call", "x", "{}", "--tools", `${ROOT}tests/e2e/fixtures/broken_tools`],
    { raw: true },
  );
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, /broken_tools/);
});

Deno.test("call --timeout-ms stops the tool at the deadline (error timeout, exit 1)", async () => {
  const result = await runCli(
    ["call", "sleepy", '{"ms":20000}', "--timeout-ms", "1000", "--json", "--tools", FIXTURE_TOOLS],
    { raw: true },
  );
  assert.equal(result.code, 1, result.stderr);
  const record = JSON.parse(result.stdout);
  assert.equal(record.outcome, "error");
  assert.equal(record.error_code, "timeout");
  assert.equal(record.deadline_ms, 1000);
  assert.ok(record.duration_ms >= 900 && record.duration_ms < 5_000, String(record.duration_ms));
});

Deno.test("call: SIGINT cancels the running tool and exits 130", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}mod.ts`, "call", "wait_inline", "{}", "--tools", CALL_TOOLS],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const stdout = new Response(child.stdout).text();
  let stderr = "";
  let sent = false;
  for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
    stderr += chunk;
    // Interrupt only once the tool runs (its own line on stderr).
    if (!sent && stderr.includes("wait_inline started")) {
      sent = true;
      child.kill("SIGINT");
    }
  }
  const status = await child.status;
  clearTimeout(guard);
  assert.equal(status.code, 130, stderr);
  assert.equal(await stdout, "");
  assert.match(stderr, /magi-tools: cancelled: /);
});

Deno.test("call: a process tool's output goes to stderr, or into --json's log", async () => {
  const plain = await runCli(["call", "chatty", "{}", "--tools", SANDBOX_TOOLS], { raw: true });
  assert.equal(plain.code, 0, plain.stderr);
  assert.equal(plain.stdout, "ok\n");
  assert.match(plain.stderr, /chatty: hello on console\.log/);
  assert.match(plain.stderr, /chatty: raw stdout/);
  const json = await runCli(["call", "chatty", "{}", "--json", "--tools", SANDBOX_TOOLS], {
    raw: true,
  });
  const record = JSON.parse(json.stdout);
  assert.match(record.log, /chatty: hello on console\.error/);
  assert.doesNotMatch(json.stderr, /chatty: hello/);
});

Deno.test("call --config runs an MCP server's tool through the same executor", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-call-config-" });
  try {
    const config = `${dir}/tools.jsonc`;
    const server = `${ROOT}tests/mcp/fixtures/server.ts`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          fx: { command: Deno.execPath(), args: ["run", ...DEV_CONFIG, "-A", server] },
        },
      }),
    );
    const ok = await runCli(["call", "fx_slow_ok", "{}", "--config", config], { raw: true });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, "ok\n");
    const failed = await runCli(["call", "fx_fail", "{}", "--config", config, "--json"], {
      raw: true,
    });
    assert.equal(failed.code, 1, failed.stderr);
    const record = JSON.parse(failed.stdout);
    assert.equal(record.error_code, "tool_failed");
    assert.equal(record.text, "disk quota exceeded");
    const missing = await runCli(["call", "x", "{}", "--config", `${dir}/none.jsonc`], {
      raw: true,
    });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /none\.jsonc/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseAuthorArgs() checks call's arguments", () => {
  assert.throws(() => parseAuthorArgs("call", []), UsageError);
  assert.throws(() => parseAuthorArgs("call", ["a", "{}", "extra"]), /Unexpected argument: extra/);
  assert.throws(
    () => parseAuthorArgs("call", ["a", "--timeout-ms", "5"]),
    /--timeout-ms must be an integer from 1000 to 600000: 5/,
  );
  const args = parseAuthorArgs("call", ["a", "--tools", "x", "--tools", "y"]);
  assert.ok(args.command === "call");
  assert.deepEqual(args.toolDirs, ["x", "y"]);
  assert.equal(args.argsJson, undefined);
});
