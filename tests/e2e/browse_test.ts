import assert from "node:assert/strict";
import { BrowseRecordSchema } from "../../src/run/browse_records.ts";
import { fakeAgent, FIXTURE_TOOLS, one, type Rec, ROOT, runCli } from "./_cli.ts";

/** A temporary MC_HOME with two saved sessions of the repository workspace and a catalog. */
async function home(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-browse-" });
  const cwd = await Deno.realPath(ROOT);
  await Deno.mkdir(`${dir}/sessions`);
  for (const [id, title] of [["s-b", null], ["s-a", "Fix the build"]] as const) {
    const base = { session_id: id, timestamp: "2026-03-04T05:06:07.000Z", cwd };
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
  await Deno.mkdir(`${dir}/catalog`);
  await Deno.writeTextFile(
    `${dir}/catalog/scripted.json`,
    JSON.stringify({
      version: 1,
      provider: "scripted",
      models: [{ id: "scripted-1", efforts: [] }, { id: "scripted-2", efforts: ["low", "high"] }],
    }),
  );
  await Deno.writeTextFile(
    `${dir}/settings.json`,
    JSON.stringify({ providers: { catalog: { enabled: ["scripted/*"] } } }),
  );
  return dir;
}

/** Run a browsing command; parse and validate its NDJSON records. */
async function browse(args: string[], mcHome: string): Promise<{ code: number; records: Rec[] }> {
  const result = await runCli(args, { home: mcHome, raw: true });
  const records = result.stdout.split("\n").filter((l) => l !== "").map((line) => {
    const record = JSON.parse(line) as Rec;
    const { ts, v, ...rest } = record;
    assert.match(String(ts), /^\d{4}-\d\d-\d\dT/);
    assert.equal(v, 1);
    assert.ok(BrowseRecordSchema.safeParse(rest).success, `Invalid record: ${line}`);
    return record;
  });
  return { code: result.code, records };
}

Deno.test("magi-tools sessions lists saved sessions as NDJSON or a table", async () => {
  const mcHome = await home();
  try {
    const { code, records } = await browse(["sessions"], mcHome);
    assert.equal(code, 0);
    assert.deepEqual(records.map((r) => r.type), [
      "session.listed",
      "session.listed",
      "sessions.done",
    ]);
    assert.deepEqual(records.slice(0, 2).map((r) => [r.session_id, r.title]), [
      ["s-a", "Fix the build"],
      ["s-b", null],
    ]);
    assert.equal(records[2]?.count, 2);
    const table = await runCli(["sessions", "--table"], { home: mcHome, raw: true });
    assert.equal(table.code, 0);
    const lines = table.stdout.trim().split("\n");
    assert.deepEqual(lines[0]?.split("\t"), ["SESSION", "ELIGIBILITY", "UPDATED", "TITLE"]);
    assert.deepEqual(lines[1]?.split("\t"), [
      "s-a",
      "available",
      "2026-03-04T05:06:07.000Z",
      "Fix the build",
    ]);
    assert.equal(lines.at(-1), "2 session(s)");
  } finally {
    await Deno.remove(mcHome, { recursive: true });
  }
});

Deno.test("magi-tools history prints every message; a missing session exits 1", async () => {
  const mcHome = await home();
  try {
    const { code, records } = await browse(["history", "s-a"], mcHome);
    assert.equal(code, 0);
    assert.deepEqual(records.map((r) => [r.type, r.kind ?? null, r.text ?? null]), [
      ["history.entry", "user", "Hello from s-a"],
      ["history.entry", "assistant", "Hi"],
      ["history.done", null, null],
    ]);
    assert.equal(one(records, "history.done").complete, true);
    const missing = await browse(["history", "nope"], mcHome);
    assert.equal(missing.code, 1);
    const error = one(missing.records, "host.error");
    assert.equal(error.code, "request_failed");
    assert.match(String(error.message), /session_missing/);
  } finally {
    await Deno.remove(mcHome, { recursive: true });
  }
});

Deno.test("magi-tools select saves a selection that models and run --session restore (shown in its session record)", async () => {
  const mcHome = await home();
  try {
    const models = await browse(["models"], mcHome);
    assert.equal(models.code, 0);
    const choices = models.records.filter((r) => r.type === "model.choice");
    assert.deepEqual(choices.map((c) => [c.model, c.availability, c.permitted_efforts]), [
      ["scripted-1", "available", ["default"]],
      ["scripted-2", "available", ["default", "low", "high"]],
    ]);
    assert.deepEqual(choices.map((c) => c.selected), [true, false], "startup selection");
    const selected = await browse(
      ["select", "scripted", "scripted-2", "--effort", "high", "--session", "s-a"],
      mcHome,
    );
    assert.equal(selected.code, 0);
    const record = one(selected.records, "selection");
    assert.equal(record.model, "scripted-2");
    assert.equal(record.effective_effort, "high");
    const restored = await browse(["models", "--session", "s-a"], mcHome);
    const marked = restored.records.filter((r) => r.type === "model.choice" && r.selected);
    assert.deepEqual(marked.map((r) => r.model), ["scripted-2"]);
    assert.equal(one(restored.records, "models.done").selection !== null, true);
    const run = await runCli(["run", "--tools", FIXTURE_TOOLS, "--session", "s-a", "hello again"], {
      home: mcHome,
    });
    assert.equal(run.code, 0, run.stderr);
    const resumed = one(run.records, "session");
    assert.equal(resumed.resumed, true);
    assert.deepEqual(resumed.selection, {
      provider: "scripted",
      model: "scripted-2",
      requested_effort: "high",
      effective_effort: "high",
    });
    assert.deepEqual(resumed.notices, []);
    const invalid = await browse(["select", "scripted", "nope", "--session", "s-a"], mcHome);
    assert.equal(invalid.code, 1);
    assert.match(String(one(invalid.records, "host.error").message), /selection_invalid/);
    // The saved model left the catalog: the backend keeps its startup model and says so.
    await Deno.writeTextFile(
      `${mcHome}/catalog/scripted.json`,
      JSON.stringify({
        version: 1,
        provider: "scripted",
        models: [{ id: "scripted-1", efforts: [] }],
      }),
    );
    const fallback = await runCli(
      ["run", "--tools", FIXTURE_TOOLS, "--session", "s-a", "and again"],
      { home: mcHome },
    );
    assert.equal(fallback.code, 0, fallback.stderr);
    const kept = one(fallback.records, "session");
    assert.deepEqual(kept.notices, ["saved_selection_unavailable"]);
    assert.equal((kept.selection as Rec | null)?.model, "scripted-1");
  } finally {
    await Deno.remove(mcHome, { recursive: true });
  }
});

const USAGE: string[][] = [
  ["select", "scripted", "scripted-2"],
  ["select", "scripted", "--session", "s"],
  ["select", "scripted", "m", "--session", "s", "--effort", "huge"],
  ["history"],
  ["sessions", "extra"],
  ["sessions", "--effort", "high"],
  ["models", "--table=yes"],
];

Deno.test("browsing commands reject bad usage with exit 2 and answer --help", async () => {
  for (const args of USAGE) {
    const result = await runCli(args, { raw: true });
    assert.equal(result.code, 2, args.join(" "));
    assert.equal(result.stdout, "");
  }
  for (const command of ["sessions", "history", "models", "select"]) {
    const help = await runCli([command, "--help"], { raw: true });
    assert.equal(help.code, 0);
    assert.match(help.stdout, new RegExp(`^Usage: magi-tools ${command}`));
    assert.match(help.stdout, /Exit codes:/);
  }
});

Deno.test("a backend that cannot start exits 3 with a host.error", async () => {
  const mcHome = await Deno.makeTempDir({ prefix: "magi-tools-browse-" });
  try {
    const result = await browse(
      ["sessions", "--agent", "/nonexistent/magi-code serve --stdio"],
      mcHome,
    );
    assert.equal(result.code, 3);
    assert.equal(one(result.records, "host.error").code, "backend_unavailable");
  } finally {
    await Deno.remove(mcHome, { recursive: true });
  }
});

Deno.test("magi-tools sessions lists 300 sessions (past the 256-session snapshot bound) once each", async () => {
  const mcHome = await home();
  try {
    const cwd = await Deno.realPath(ROOT);
    const ids: string[] = ["s-a", "s-b"];
    for (let i = 0; i < 298; i++) {
      const id = `bulk-${String(i).padStart(3, "0")}`;
      ids.push(id);
      const base = { session_id: id, timestamp: "2026-03-04T05:06:07.000Z", cwd };
      const records = [
        { type: "user", ...base, run_id: "r1", message_id: "u1", text: `Prompt ${i}` },
        { type: "assistant", ...base, run_id: "r1", message_id: "a1", text: "Done" },
        { type: "run_finished", ...base, run_id: "r1", outcome: "completed", error_code: null },
      ];
      await Deno.writeTextFile(
        `${mcHome}/sessions/${id}.jsonl`,
        records.map((r) => JSON.stringify(r) + "\n").join(""),
      );
    }
    const { code, records } = await browse(["sessions"], mcHome);
    assert.equal(code, 0, JSON.stringify(records.at(-1)));
    const listed = records.filter((r) => r.type === "session.listed").map((r) => r.session_id);
    assert.equal(listed.length, 300);
    assert.deepEqual([...listed].sort(), [...ids].sort());
    assert.equal(one(records, "sessions.done").count, 300);
    const table = await runCli(["sessions", "--table"], { home: mcHome, raw: true });
    assert.equal(table.code, 0, table.stderr);
    assert.equal(table.stdout.trim().split("\n").at(-1), "300 session(s)");
  } finally {
    await Deno.remove(mcHome, { recursive: true });
  }
});

Deno.test("magi-tools history follows every page of a long session (600 messages)", async () => {
  const mcHome = await home();
  try {
    const cwd = await Deno.realPath(ROOT);
    const base = { session_id: "long", timestamp: "2026-03-04T05:06:07.000Z", cwd };
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) {
      const run = { ...base, run_id: `r${i}` };
      lines.push(JSON.stringify({ type: "user", ...run, message_id: `u${i}`, text: `Q${i}` }));
      lines.push(JSON.stringify({ type: "assistant", ...run, message_id: `a${i}`, text: `A${i}` }));
      lines.push(
        JSON.stringify({ type: "run_finished", ...run, outcome: "completed", error_code: null }),
      );
    }
    await Deno.writeTextFile(`${mcHome}/sessions/long.jsonl`, lines.join("\n") + "\n");
    const { code, records } = await browse(["history", "long"], mcHome);
    assert.equal(code, 0, JSON.stringify(records.at(-1)));
    const entries = records.filter((r) => r.type === "history.entry");
    assert.equal(entries.length, 600);
    assert.equal(entries[0]?.text, "Q0");
    assert.equal(entries[599]?.text, "A299");
    const done = one(records, "history.done");
    assert.equal(done.entries, 600);
    assert.equal(done.complete, true);
  } finally {
    await Deno.remove(mcHome, { recursive: true });
  }
});

Deno.test("magi-tools sessions falls back to session.list when the backend lacks session.discover", async () => {
  const mcHome = await home();
  try {
    const { code, records } = await browse(
      ["sessions", "--agent", fakeAgent("no_discover")],
      mcHome,
    );
    assert.equal(code, 0, JSON.stringify(records.at(-1)));
    assert.deepEqual(
      records.filter((r) => r.type === "session.listed").map((r) => r.session_id),
      ["fake-a", "fake-b"],
    );
    assert.equal(one(records, "sessions.done").count, 2);
  } finally {
    await Deno.remove(mcHome, { recursive: true });
  }
});
