/**
 * `run` with real MCP servers from npm (pinned in deno.lock, run with Deno)
 * and a misbehaving fixture server, against the reference backend: the
 * NDJSON records and what the model saw (the scripted reply is one
 * `name → text` line per result).
 */

import assert from "node:assert/strict";
import { ofType, one, type Rec, ROOT, runCli } from "../e2e/_cli.ts";
import { startMcpHttp } from "./_http.ts";
import { denoServer, EVERYTHING, FILESYSTEM, FIXTURE_SERVER, writeConfig } from "./_config.ts";

function reply(records: Rec[]): string {
  return String(one(records, "message")["text"]);
}

function resultOf(records: Rec[], name: string): Rec {
  const found = ofType(records, "tool.result").filter((r) => r["name"] === name);
  assert.equal(found.length, 1, `one tool.result of ${name}`);
  return found[0]!;
}

Deno.test("run calls server-everything tools: echo, sum, image, resource links, progress, bad arguments", async () => {
  const config = await writeConfig({
    mcpServers: {
      everything: denoServer(EVERYTHING, {
        args: ["stdio"],
        exclude: ["toggle-*", "simulate-*", "gzip-*"],
        effects: { "get-env": "write" },
      }),
    },
  });
  const prompt = [
    'everything_echo {"message":"hi"}',
    'everything_get-sum {"a":2,"b":3}',
    "everything_get-tiny-image",
    'everything_get-resource-links {"count":1}',
    'everything_get-structured-content {"location":"Chicago"}',
    'everything_trigger-long-running-operation {"duration":1,"steps":2}',
    'everything_get-annotated-message {"messageType":"nope"}',
  ].join(" ");
  const { code, records, stderr } = await runCli([
    "run",
    "--config",
    config,
    "--tools",
    "tests/e2e/fixtures/tools",
    prompt,
  ]);
  assert.equal(code, 0, stderr);
  const ready = one(records, "host.ready");
  const tools = ready["tools"] as Rec[];
  const echo = tools.find((t) => t["name"] === "everything_echo")!;
  assert.deepEqual([echo["effect"], echo["source"], echo["source_name"]], [
    "read",
    "mcp",
    "everything",
  ]);
  assert.equal(tools.find((t) => t["name"] === "everything_get-env")!["effect"], "write");
  assert.ok(!tools.some((t) => String(t["name"]).startsWith("everything_toggle")));
  assert.ok(tools.some((t) => t["source"] === "module"), "module tools are mixed in");

  const text = reply(records);
  assert.match(text, /^everything_echo → Echo: hi$/m);
  assert.match(text, /^everything_get-sum → The sum of 2 and 3 is 5\.$/m);
  // The image passes through as a rich result: saved to a file the text names (issue 35 item 3).
  assert.match(text, /\[image: image\/png, \d+ bytes, saved to the file \S+\.png\]/);
  assert.ok(!/iVBOR/.test(text), "no base64 in the model's context");
  assert.match(text, /\[resource link: [^\]]+ demo:\/\/resource\/[^\]]+\]/);
  assert.match(text, /"conditions"/);
  assert.match(
    text,
    /everything_trigger-long-running-operation → Long running operation completed/,
  );
  const bad = resultOf(records, "everything_get-annotated-message");
  assert.deepEqual([bad["outcome"], bad["error_code"]], ["error", "invalid_arguments"]);
  assert.match(
    text,
    /everything_get-annotated-message → error \(invalid_arguments\): Invalid arguments: messageType: must be equal to one of the allowed values/,
  );

  const progress = ofType(records, "tool.progress");
  assert.ok(progress.length >= 1, "progress notifications are recorded");
  const long = resultOf(records, "everything_trigger-long-running-operation");
  assert.ok(progress.every((p) => p["call_id"] === long["call_id"]));
  assert.equal(progress[0]!["total"], 2);
});

Deno.test("run with server-filesystem on a temp dir: reads a file; write_file needs approval (denied)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-fs-" });
  await Deno.writeTextFile(`${dir}/note.txt`, "hello from the temp dir\n");
  const config = await writeConfig({
    mcpServers: {
      fs: denoServer(FILESYSTEM, {
        args: [dir],
        include: ["read_text_file", "write_file", "list_directory"],
      }),
    },
  });
  const { code, records, stderr } = await runCli([
    "run",
    "--config",
    config,
    "--tools",
    "tests/e2e/fixtures/tools",
    `fs_read_text_file {"path":"${dir}/note.txt"} fs_write_file {"path":"${dir}/new.txt","content":"x"}`,
  ]);
  assert.equal(code, 0, stderr);
  const tools = one(records, "host.ready")["tools"] as Rec[];
  const effects = Object.fromEntries(
    tools.filter((t) => t["source"] === "mcp").map((t) => [t["name"], t["effect"]]),
  );
  assert.deepEqual(effects, {
    fs_read_text_file: "read",
    fs_write_file: "write",
    fs_list_directory: "read",
  });
  assert.match(reply(records), /^fs_read_text_file → hello from the temp dir$/m);
  const approval = one(records, "approval");
  assert.equal(approval["decision"], "deny");
  await assert.rejects(Deno.stat(`${dir}/new.txt`), Deno.errors.NotFound);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("run with a misbehaving server: isError, and a death mid-run answers its outstanding calls", async () => {
  const config = await writeConfig({
    mcpServers: {
      bad: denoServer(FIXTURE_SERVER, {
        timeoutMs: 1_000,
        // Not annotated readOnlyHint: write (approval, denied by default) unless overridden.
        effects: { fail: "read", hang: "read", die: "read" },
      }),
    },
  });
  const started = performance.now();
  const { code, records, stderr } = await runCli([
    "run",
    "--config",
    config,
    "--tools",
    "tests/e2e/fixtures/tools",
    "bad_fail bad_hang bad_die",
  ]);
  assert.equal(code, 0, stderr);
  assert.ok(performance.now() - started < 30_000);
  const fail = resultOf(records, "bad_fail");
  assert.deepEqual([fail["outcome"], fail["error_code"]], ["error", "tool_failed"]);
  assert.match(reply(records), /^bad_fail → error \(tool_failed\): disk quota exceeded$/m);
  // bad_hang was outstanding when the server died: answered at once, not at its timeout.
  const hang = resultOf(records, "bad_hang");
  assert.deepEqual([hang["outcome"], hang["error_code"]], ["error", "tool_unavailable"]);
  assert.ok((hang["duration_ms"] as number) < 1_000);
  const die = resultOf(records, "bad_die");
  assert.deepEqual([die["outcome"], die["error_code"]], ["error", "tool_unavailable"]);
  assert.match(
    reply(records),
    /^bad_die → error \(tool_unavailable\): MCP server bad exited \(code 7\)/m,
  );
  const warning = one(records, "host.warning");
  assert.deepEqual([warning["code"], warning["source"]], ["source_exited", "mcp:bad"]);
  assert.equal(records.at(-1)!["type"], "turn.finished");
});

Deno.test("run answers a call the server never answers at its timeoutMs; the server's other calls go on", async () => {
  const config = await writeConfig({
    mcpServers: {
      bad: denoServer(FIXTURE_SERVER, {
        timeoutMs: 1_000,
        effects: { hang: "read", slow_ok: "read" },
      }),
    },
  });
  const { code, records, stderr } = await runCli([
    "run",
    "--config",
    config,
    "--tools",
    "tests/e2e/fixtures/tools",
    "bad_hang bad_slow_ok",
  ]);
  assert.equal(code, 0, stderr);
  const hang = resultOf(records, "bad_hang");
  assert.deepEqual([hang["outcome"], hang["error_code"]], ["error", "timeout"]);
  assert.ok((hang["duration_ms"] as number) < 1_000 + 2_000, "answered within timeout + grace");
  assert.match(reply(records), /^bad_slow_ok → ok$/m);
  assert.equal(ofType(records, "host.warning").length, 0);
});

Deno.test("run fails with exit 2 naming a server that does not start, with its stderr tail", async () => {
  const config = await writeConfig({
    mcpServers: { db: denoServer(FIXTURE_SERVER, { env: { FIXTURE_CRASH_AT_START: "1" } }) },
  });
  const { code, records, stderr } = await runCli(["run", "--config", config, "hi"]);
  assert.equal(code, 2);
  assert.deepEqual(records, []);
  assert.match(
    stderr,
    /MCP server db failed to start \(command [^)]+\): the process exited with code 3/,
  );
  assert.match(stderr, /stderr: fixture: cannot open database \/nonexistent\/db/);
});

Deno.test("run goes on without an optional server that does not start (host.warning)", async () => {
  const config = await writeConfig({
    mcpServers: {
      db: denoServer(FIXTURE_SERVER, { env: { FIXTURE_CRASH_AT_START: "1" }, optional: true }),
    },
  });
  const { code, records, stderr } = await runCli([
    "run",
    "--config",
    config,
    "--tools",
    "tests/e2e/fixtures/tools",
    "hi",
  ]);
  assert.equal(code, 0, stderr);
  assert.equal(records[0]!["type"], "host.ready");
  const tools = records[0]!["tools"] as Rec[];
  assert.ok(!tools.some((t) => t["source"] === "mcp"));
  const warning = one(records, "host.warning");
  assert.equal(warning["code"], "source_unavailable");
  assert.match(String(warning["message"]), /MCP server db failed to start.*optional/s);
});

Deno.test("run fails with exit 2 on a tool over a client.tools bound, naming tool, bound and fix", async () => {
  const config = await writeConfig({
    mcpServers: { big: denoServer(FIXTURE_SERVER, { env: { FIXTURE_LONG_DESCRIPTION: "1" } }) },
  });
  const { code, stderr } = await runCli(["run", "--config", config, "hi"]);
  assert.equal(code, 2);
  assert.match(
    stderr,
    /Tool description is too long: big_verbose \(mcp:big\): 2000 bytes exceeds the limit of 1024; fix: exclude the tool/,
  );
});

Deno.test("run fails with exit 2 on a config error, naming the key path", async () => {
  const config = await writeConfig({ mcpServers: { a: { command: "x", timeout: 5 } } });
  const { code, stderr } = await runCli(["run", "--config", config, "hi"]);
  assert.equal(code, 2);
  assert.match(stderr, /magi-tools\.jsonc: mcpServers\.a\.timeout: unknown key/);
  const missing = await runCli(["run", "--config", "/nonexistent/m.jsonc", "hi"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Config file not found: \/nonexistent\/m.jsonc/);
});

Deno.test("run uses a Streamable HTTP server (url) as a source: magi-tools mcp --http", async () => {
  const server = await startMcpHttp({ tools: `${ROOT}tests/mcp/fixtures/tools` });
  try {
    const url = server.url;
    const config = await writeConfig({
      mcpServers: {
        remote: {
          url,
          headers: { "X-Test": "${HOME:-none}", Authorization: `Bearer ${server.token}` },
          include: ["noisy"],
        },
      },
    });
    const { code, records, stderr } = await runCli([
      "run",
      "--config",
      config,
      "--tools",
      "tests/e2e/fixtures/tools",
      'remote_noisy {"text":"over http"}',
    ]);
    assert.equal(code, 0, stderr);
    const tool = (one(records, "host.ready")["tools"] as Rec[]).find((t) =>
      t["name"] === "remote_noisy"
    )!;
    assert.deepEqual([tool["effect"], tool["source"], tool["source_name"]], [
      "read",
      "mcp",
      "remote",
    ]);
    assert.match(reply(records), /^remote_noisy → \{"echoed":"over http"\}$/m);
  } finally {
    assert.equal(await server.stop(), 0, server.stderr());
  }
});
