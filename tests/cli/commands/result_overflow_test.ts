/**
 * Issue 35 item 4: a tool's own `maxResultBytes` and `overflow` policy, through `call --json`
 * (black box, the CLI as a child process).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { ROOT, runCli } from "../../e2e/_cli.ts";
import { denoServer, FIXTURE_SERVER, writeConfig } from "../../mcp/_config.ts";

const TOOLS = `${ROOT}tests/e2e/fixtures/overflow_tools`;

/** `call NAME ARGS --json` in `cwd`; the one record. */
async function call(name: string, args: unknown, cwd?: string) {
  const result = await runCli(
    ["call", name, JSON.stringify(args), "--json", "--no-config", "--tools", TOOLS],
    { raw: true, ...(cwd === undefined ? {} : { cwd }) },
  );
  const lines = result.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 1, result.stdout.slice(0, 500) + result.stderr);
  return { code: result.code, stderr: result.stderr, record: JSON.parse(lines[0]!) };
}

const utf8 = (text: string) => new TextEncoder().encode(text).length;

Deno.test("call --json: a 200 KB result of a truncate tool is cut to its bound with a marker", async () => {
  const { code, stderr, record } = await call("cut", { bytes: 200_000 });
  assert.equal(code, 0, stderr);
  assert.equal(record.outcome, "success");
  assert.ok(record.bytes <= 50_000, `${record.bytes} bytes`);
  assert.equal(utf8(record.text), record.bytes);
  assert.ok(record.text.startsWith("HEAD") && record.text.endsWith("TAIL"));
  const marker =
    /\[… (\d+) of 200000 bytes left out here: .*limit of 50000 bytes.*narrower arguments/
      .exec(record.text);
  assert.ok(marker, record.text.slice(0, 200));
  // What the marker says was cut is exactly what is missing.
  assert.equal(Number(marker[1]), 200_000 - record.overflow.kept);
  assert.equal(record.overflow.policy, "truncate");
  assert.equal(record.overflow.bytes, 200_000);
});

Deno.test("call --json: a result within the tool's bound is whole, with no overflow field", async () => {
  const { code, record } = await call("cut", { bytes: 40_000 });
  assert.equal(code, 0);
  assert.equal(record.bytes, 40_000);
  assert.equal(record.overflow, undefined);
});

Deno.test("call --json: a spill tool writes the whole result to a file and names it", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "magi-tools-spill-" });
  try {
    const { code, stderr, record } = await call("spill", { bytes: 200_000 }, cwd);
    assert.equal(code, 0, stderr);
    assert.equal(record.outcome, "success");
    assert.ok(record.bytes <= 20_000, `${record.bytes} bytes`);
    const file: string = record.overflow.file;
    assert.equal(record.overflow.policy, "spill");
    assert.ok(
      file.startsWith(join(await Deno.realPath(cwd), ".magi-tools", "results")) ||
        file.startsWith(join(cwd, ".magi-tools", "results")),
      file,
    );
    assert.ok(record.text.includes(file), "the text names the file");
    assert.match(record.text, /The result is 200000 bytes, over this tool's limit of 20000 bytes/);
    const whole = await Deno.readTextFile(file);
    assert.equal(whole.length, 200_000);
    assert.ok(whole.startsWith("abcdefghijklmnopqrstuvwxyzabc"));
    // The head follows the note.
    assert.ok(record.text.endsWith(whole.slice(0, record.overflow.kept)));
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("call --json: over its bound a tool with no overflow policy answers result_too_large", async () => {
  const { code, record } = await call("strict", { bytes: 30_000 });
  assert.equal(code, 1);
  assert.equal(record.outcome, "error");
  assert.equal(record.error_code, "result_too_large");
  assert.equal(record.text, "Result too large: 30000 bytes exceeds the limit of 20000 bytes");
});

/** A project whose config starts the fixture MCP server as `fx` with `extra` in its entry. */
async function fixtureProject(extra: Record<string, unknown>): Promise<string> {
  return dirname(
    await writeConfig({
      mcpServers: {
        fx: denoServer(FIXTURE_SERVER, {
          env: { FIXTURE_LONG_RESULT: "1" },
          effects: { long: "read" },
          ...extra,
        }),
      },
    }),
  );
}

Deno.test("call --json: an MCP server's maxResultBytes and overflow in the config apply to its tools", async () => {
  const dir = await fixtureProject({ maxResultBytes: 20_000, overflow: "truncate" });
  try {
    const result = await runCli(["call", "fx_long", '{"bytes":200000}', "--json"], {
      cwd: dir,
      raw: true,
      env: { MAGI_TOOLS_TRUST_CONFIG: "1" },
    });
    assert.equal(result.code, 0, result.stderr);
    const record = JSON.parse(result.stdout);
    assert.ok(record.bytes <= 20_000, `${record.bytes} bytes`);
    assert.match(record.text, /^HEAD[^]*bytes left out here: .*limit of 20000 bytes[^]*TAIL$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("call: a config maxResultBytes out of range is refused naming the key (exit 2)", async () => {
  const dir = await fixtureProject({ maxResultBytes: 10 });
  try {
    const result = await runCli(["call", "fx_long", '{"bytes":10}'], {
      cwd: dir,
      raw: true,
      env: { MAGI_TOOLS_TRUST_CONFIG: "1" },
    });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /mcpServers\.fx\.maxResultBytes: .*1024 to 1048576/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
