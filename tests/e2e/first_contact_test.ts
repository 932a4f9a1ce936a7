/** First-contact behaviours (issue 12): flags, errors and messages a new user meets. */
import assert from "node:assert/strict";
import { ofType, one, ROOT, runCli } from "./_cli.ts";

const TOOLS = `${ROOT}tests/e2e/fixtures/first_contact_tools`;
const WITH_SCENARIO = {
  env: { MAGI_SCENARIO: `${ROOT}tests/e2e/fixtures/scenarios/first_contact.jsonc` },
};

function run(prompt: string, ...flags: string[]): string[] {
  return ["run", "--tools", TOOLS, ...flags, prompt];
}

Deno.test("run --fail-on-tool-error: a tool error exits 1 and turn.finished says why", async () => {
  const result = await runCli(run("FAILS", "--fail-on-tool-error"), WITH_SCENARIO);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(one(result.records, "tool.result").outcome, "error");
  const finished = one(result.records, "turn.finished");
  assert.equal(finished.outcome, "completed");
  assert.equal(finished.exit_code, 1);
  assert.equal(finished.exit_reason, "tool_errors");
  assert.match(
    result.stderr,
    /--fail-on-tool-error: 1 tool error\(s\) or denial\(s\) in this turn: exit 1/,
  );
});

Deno.test("run without --fail-on-tool-error: a tool error still exits 0, no exit_reason", async () => {
  const result = await runCli(run("FAILS"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  const finished = one(result.records, "turn.finished");
  assert.equal(finished.exit_code, 0);
  assert.equal("exit_reason" in finished, false);
});

Deno.test("run --fail-on-tool-error: successful calls exit 0", async () => {
  const result = await runCli(run("OK", "--fail-on-tool-error"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(one(result.records, "tool.result").outcome, "success");
  assert.equal("exit_reason" in one(result.records, "turn.finished"), false);
});

Deno.test("run --fail-on-tool-error: a denied approval exits 1", async () => {
  // The fixture tools of the main e2e set: `note` is a write tool, denied by default.
  const result = await runCli(
    ["run", "--tools", `${ROOT}tests/e2e/fixtures/tools`, "--fail-on-tool-error", "APPROVE"],
    { env: { MAGI_SCENARIO: `${ROOT}tests/e2e/fixtures/scenarios/results.jsonc` } },
  );
  assert.equal(result.code, 1, result.stderr);
  assert.equal(one(result.records, "approval").decision, "deny");
  assert.equal(ofType(result.records, "tool.call").length, 0);
  assert.equal(one(result.records, "turn.finished").exit_reason, "tool_errors");
});

/** Run `script` (a module importing the library from `ROOT/mod.ts`) in a child `deno run -A`. */
async function runScript(script: string, env: Record<string, string> = {}) {
  const home = await Deno.makeTempDir({ prefix: "magi-tools-e2e-lib-" });
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--ext=ts", script],
      cwd: ROOT,
      stdin: "null",
      env: { NO_COLOR: "1", MC_HOME: home, MAGI_TOOLS_SELF_CHECK: "1", ...env },
    }).output();
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test("runOneTurn returns the records and writes nothing to stdout", async () => {
  const script = `
    import { runOneTurn } from "${ROOT}mod.ts";
    const { exitCode, records } = await runOneTurn({
      prompt: "FAILS",
      toolDirs: ["${TOOLS}"],
      agent: "reference",
      failOnToolError: true,
    });
    const types = records.map((r) => r.type).join(",");
    Deno.writeTextFileSync(Deno.env.get("OUT"), JSON.stringify({ exitCode, types, records }));
  `;
  const out = await Deno.makeTempFile();
  try {
    const result = await runScript(script, { ...WITH_SCENARIO.env, OUT: out });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "");
    const { exitCode, types, records } = JSON.parse(await Deno.readTextFile(out));
    assert.equal(exitCode, 1);
    assert.match(types, /^host\.ready,session,turn\.started,.*tool\.result.*,turn\.finished$/);
    assert.equal(records.at(-1).exit_reason, "tool_errors");
  } finally {
    await Deno.remove(out);
  }
});

Deno.test("runOneTurn throws a tool module's load error before starting a backend", async () => {
  const script = `
    import { runOneTurn } from "${ROOT}mod.ts";
    try {
      await runOneTurn({ prompt: "hi", toolDirs: ["${ROOT}tests/e2e/fixtures/broken_tools"],
        agent: "/nonexistent/backend" });
      console.error("no error");
    } catch (error) {
      console.error(error.name + ": " + error.message);
    }
  `;
  const result = await runScript(script);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /^ToolLoadError: .*bad\.ts/m);
  assert.equal(result.stdout, "");
});

Deno.test("run: a reserved tool name exits 2 naming the file and the reserved list, no backend error", async () => {
  const result = await runCli(["run", "--tools", `${ROOT}tests/e2e/fixtures/reserved_tools`, "hi"]);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(
    result.stderr,
    /Tool name shell is reserved for a backend built-in tool: .*reserved_tools\/shell\.ts; rename the tool \(reserved names: shell, edit, apply_patch, builtin_search\)/,
  );
  assert.doesNotMatch(result.stderr, /invalid_params/);
});

Deno.test("run: a bad scenario file: the backend's stderr names the file, JSON path and reason", async () => {
  const file = `${ROOT}tests/e2e/fixtures/scenarios_bad/bad_tool.jsonc`;
  const result = await runCli(run("hi"), { env: { MAGI_SCENARIO: file } });
  assert.equal(result.code, 3, result.stderr);
  // The wire error stays the bare code.
  assert.equal(
    one(result.records, "host.error").message,
    "Initialize failed: configuration_invalid",
  );
  const lines = result.stderr.split("\n").filter((line) => line.includes("configuration_invalid:"));
  assert.deepEqual(lines, [
    `reference backend: configuration_invalid: scenario ${file}: $.turns[0].steps[1].call.tool: ` +
    "Invalid input: expected string, received number",
  ]);
});

Deno.test("run: a missing scenario file is named on stderr", async () => {
  const file = `${ROOT}tests/e2e/fixtures/scenarios_bad/missing.jsonc`;
  const result = await runCli(run("hi"), { env: { MAGI_SCENARIO: file } });
  assert.equal(result.code, 3, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(`configuration_invalid: scenario ${file}: \\$: cannot be read: no such file`),
  );
});

Deno.test("run: a denied permission: stderr names the host and the fix, the model sees the kind only", async () => {
  const result = await runCli(run("WEATHER"), WITH_SCENARIO);
  assert.equal(result.code, 0, result.stderr);
  const tool = one(result.records, "tool.result");
  assert.equal(tool.error_code, "permission_denied");
  assert.match(
    result.stderr,
    /Tool weather was denied net access to "127\.0\.0\.1:8799": add "127\.0\.0\.1:8799" to permissions\.net in .*first_contact_tools\/weather\.ts/,
  );
  const seen = String(one(result.records, "message").text);
  assert.match(seen, /Permission denied: net access to a host outside the declared list/);
  assert.doesNotMatch(seen, /8799/);
});

// "--last-message in a missing directory is a usage error before the turn": robustness_test.ts.

Deno.test("run: a malformed --session is a usage error (exit 2) before anything starts", async () => {
  const result = await runCli(run("OK", "--session", "not a session"), WITH_SCENARIO);
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /Option --session is not a session ID/);
});

Deno.test("run: an unknown --session says sessions belong to the directory and how to list them", async () => {
  const result = await runCli(run("OK", "--session", "no-such-session"), WITH_SCENARIO);
  assert.equal(result.code, 1, result.stderr);
  assert.equal(
    one(result.records, "host.error").message,
    "Session not found: no-such-session (session_missing): sessions belong to the working " +
      "directory they were created in (see --cwd); list this directory's sessions with " +
      "'magi-tools sessions'",
  );
});

Deno.test("run: --agent naming a missing program says not found with the full command", async () => {
  const given = "/nonexistent/magi-code serve --stdio --token s3cret";
  const result = await runCli(run("OK", "--agent", given), WITH_SCENARIO);
  assert.equal(result.code, 3, result.stderr);
  assert.match(
    result.stderr,
    /magi-tools: backend command not found: \/nonexistent\/magi-code \(from --agent: \/nonexistent\/magi-code serve --stdio --token s3cret\)/,
  );
  const error = one(result.records, "host.error");
  assert.equal(error.message, "Cannot start the backend command: magi-code: not found");
  // stdout keeps the basename only.
  assert.doesNotMatch(result.stdout, /s3cret/);
});

/** A temporary MC_HOME with saved sessions of the repository workspace (no catalog). */
async function sessionsHome(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-e2e-sessions-" });
  const cwd = await Deno.realPath(ROOT);
  await Deno.mkdir(`${dir}/sessions`);
  const sessions = [
    ["s-old", "2026-01-01T00:00:00.000Z", "Older work"],
    ["s-new", "2026-03-01T00:00:00.000Z", null],
    ["s-mid", "2026-02-01T00:00:00.000Z", "Middle"],
  ] as const;
  for (const [id, timestamp, title] of sessions) {
    const base = { session_id: id, timestamp, cwd };
    const records = [
      { type: "user", ...base, run_id: "r1", message_id: "u1", text: `Hello from ${id}` },
      { type: "assistant", ...base, run_id: "r1", message_id: "a1", text: "Hi" },
      { type: "run_finished", ...base, run_id: "r1", outcome: "completed", error_code: null },
      ...(title === null ? [] : [{ type: "title", ...base, title }]),
    ];
    await Deno.writeTextFile(
      `${dir}/sessions/${id}.jsonl`,
      records.map((r) => JSON.stringify(r) + "\n").join(""),
    );
  }
  return dir;
}

Deno.test("sessions --table: newest first, with titles where sessions have them", async () => {
  const home = await sessionsHome();
  try {
    const table = await runCli(["sessions", "--table"], { home, raw: true });
    assert.equal(table.code, 0, table.stderr);
    const rows = table.stdout.trim().split("\n").slice(1, -1).map((line) => line.split("\t"));
    assert.deepEqual(rows.map((row) => [row[0], row[3]]), [
      ["s-new", "-"],
      ["s-mid", "Middle"],
      ["s-old", "Older work"],
    ]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("models without a catalog shows the model that runs and how to give it a catalog", async () => {
  const home = await sessionsHome();
  try {
    const table = await runCli(["models", "--table"], { home, raw: true });
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trim().split("\n");
    assert.deepEqual(lines[1]?.split("\t"), [
      "scripted",
      "scripted-1",
      "(not in the catalog)",
      "-",
      "*",
    ]);
    assert.match(
      table.stderr,
      /the backend's model catalog lists no models; it runs scripted\/scripted-1\. The reference backend lists the models of \$MC_HOME\/catalog\/<provider>\.json/,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("select of the model status reports succeeds (nothing to save)", async () => {
  const home = await sessionsHome();
  try {
    const result = await runCli(["select", "scripted", "scripted-1", "--session", "s-new"], {
      home,
      raw: true,
    });
    assert.equal(result.code, 0, result.stderr);
    const record = JSON.parse(result.stdout.trim());
    assert.equal(record.type, "selection");
    assert.equal(record.provider, "scripted");
    assert.equal(record.model, "scripted-1");
    assert.deepEqual(record.notices, ["already_selected"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
