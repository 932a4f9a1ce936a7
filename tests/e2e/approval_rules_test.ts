/**
 * Approval rules (issue 36): `--approve allow=TOOL --approve deny` and the config's `approvals`
 * decide each write tool on its own, in `run`, `batch` and `tools`; the decision and the rule that
 * made it are on the `approval` record; an invalid rule is a usage error naming the value.
 */
import assert from "node:assert/strict";
import { ROOT, runCli } from "./_cli.ts";
import { indexLines, runCli as runBatchCli, writeInput } from "../batch/_batch.ts";
import { startMcpStdio } from "../mcp/_stdio.ts";
import { startInspector } from "../inspect/_inspector.ts";

const TOOLS = `${ROOT}tests/e2e/fixtures/policy_tools`;
const BOTH = 'file_ticket {"text":"a"} and erase_all {"text":"b"}';

type Rec = Record<string, unknown>;

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "magi-approval-rules-" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** The outcome of each tool's call and its call-time approval record. */
function byTool(records: readonly Rec[]): Map<string, { outcome: unknown; approval: Rec }> {
  const names = new Map<string, string>();
  for (const r of records) if (r.type === "tool.call") names.set(String(r.call_id), String(r.name));
  const out = new Map<string, { outcome: unknown; approval: Rec }>();
  for (const r of records) {
    if (r.type !== "tool.result") continue;
    const approval = records.find((a) => a.type === "approval" && a.call_id === r.call_id)!;
    out.set(String(r.name), { outcome: r.error_code ?? r.outcome, approval });
  }
  assert.equal(out.size, names.size);
  return out;
}

Deno.test("run --approve allow=file_ticket --approve deny: the first runs, the other is denied by the default, each record names its rule", async () => {
  const run = await runCli([
    "run",
    "--agent",
    "reference",
    "--no-config",
    "--tools",
    TOOLS,
    "--approve",
    "allow=file_ticket",
    "--approve",
    "deny",
    BOTH,
  ]);
  assert.equal(run.code, 0, run.stderr);
  const calls = byTool(run.records);
  assert.equal(calls.get("file_ticket")?.outcome, "success");
  assert.equal(calls.get("file_ticket")?.approval.decision, "allow");
  assert.equal(calls.get("file_ticket")?.approval.decided_by, "flag");
  assert.equal(calls.get("file_ticket")?.approval.rule, "allow=file_ticket");
  assert.equal(calls.get("erase_all")?.outcome, "approval_denied");
  assert.equal(calls.get("erase_all")?.approval.decision, "deny");
  assert.equal(calls.get("erase_all")?.approval.rule, "deny");
  const message = run.records.find((r) => r.type === "message");
  assert.match(String(message?.text), /erase_all → error \(approval_denied\): .*rule deny denies/);
});

Deno.test("run --approve allow=write_a alone is valid now (the default stays deny); a glob and a source rule match", async () => {
  const run = await runCli([
    "run",
    "--agent",
    "reference",
    "--no-config",
    "--tools",
    TOOLS,
    "--approve",
    "deny=erase_*",
    "--approve",
    "allow=module",
    BOTH,
  ]);
  assert.equal(run.code, 0, run.stderr);
  const calls = byTool(run.records);
  assert.equal(calls.get("file_ticket")?.approval.rule, "allow=module");
  assert.equal(calls.get("file_ticket")?.outcome, "success");
  assert.equal(calls.get("erase_all")?.approval.rule, "deny=erase_*");
  assert.equal(calls.get("erase_all")?.outcome, "approval_denied");
});

Deno.test("an invalid --approve value is a usage error naming it, wherever it stands", async () => {
  for (
    const values of [
      ["maybe=x", "deny"],
      ["deny", "maybe"],
      ["allow="],
      ["allow=bad name"],
      ["allow=ftp:x/y"],
    ]
  ) {
    const args = values.flatMap((value) => ["--approve", value]);
    const run = await runCli(["run", "--agent", "reference", "--no-config", ...args, "hi"]);
    assert.equal(run.code, 2, `${values}: ${run.stderr}`);
    const bad = values.find((value) => !["deny", "allow", "ask"].includes(value))!;
    assert.ok(run.stderr.includes(JSON.stringify(bad)), run.stderr);
    assert.match(run.stderr, /Option --approve must be deny, allow or ask, or a rule/);
    assert.equal(run.records.length, 0);
  }
});

Deno.test("the config's approvals decide per tool, need trust when they allow, and flags come first", async () => {
  await withDir(async (dir) => {
    const config = `${dir}/magi-tools.jsonc`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        approvals: [{ tool: "file_ticket", decision: "allow" }, { decision: "deny" }],
      }),
    );
    const base = ["run", "--agent", "reference", "--tools", TOOLS];
    // A project config that allows a write tool is not approved by being there.
    const refused = await runCli([...base, BOTH], { cwd: dir });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /Project config is not approved/);
    assert.match(refused.stderr, /allows write tools without asking: allow=file_ticket/);
    // Named with --config it is approved.
    const run = await runCli([...base, "--config", config, BOTH], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const calls = byTool(run.records);
    assert.equal(calls.get("file_ticket")?.outcome, "success");
    assert.equal(calls.get("file_ticket")?.approval.decided_by, "config");
    assert.equal(calls.get("file_ticket")?.approval.rule, "allow=file_ticket");
    assert.equal(calls.get("erase_all")?.approval.decided_by, "config");
    assert.equal(calls.get("erase_all")?.outcome, "approval_denied");
    // A flag rule is checked before the config's, a flag default replaces the config's.
    const flagged = await runCli(
      [...base, "--config", config, "--approve", "deny=file_ticket", "--approve", "allow", BOTH],
      { cwd: dir },
    );
    assert.equal(flagged.code, 0, flagged.stderr);
    const after = byTool(flagged.records);
    assert.equal(after.get("file_ticket")?.outcome, "approval_denied");
    assert.equal(after.get("file_ticket")?.approval.decided_by, "flag");
    assert.equal(after.get("erase_all")?.outcome, "success");
    assert.equal(after.get("erase_all")?.approval.rule, "allow");
  });
});

Deno.test("an invalid approvals rule in the config is an error naming the key", async () => {
  await withDir(async (dir) => {
    const config = `${dir}/magi-tools.jsonc`;
    await Deno.writeTextFile(config, JSON.stringify({ approvals: [{ decision: "maybe" }] }));
    const run = await runCli(["tools", "--config", config, "--tools", TOOLS], { cwd: dir });
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /approvals\[0\]\.decision.*must be allow, deny or ask/);
  });
});

Deno.test("tools shows the effective approval rule of each write tool", async () => {
  await withDir(async (dir) => {
    const config = `${dir}/magi-tools.jsonc`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({ approvals: [{ source: "module", tool: "file_*", decision: "allow" }] }),
    );
    const run = await runCli(
      ["tools", "--config", config, "--tools", TOOLS, "--approve", "ask=erase_all"],
      { cwd: dir, raw: true },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^approval file_ticket: allow \(rule allow=module\/file_\* from the config\)$/m,
    );
    assert.match(run.stdout, /^approval erase_all: ask \(rule ask=erase_all from --approve\)$/m);
    const defaulted = await runCli(
      ["tools", "--no-config", "--tools", TOOLS, "--approve", "deny=file_ticket"],
      { raw: true },
    );
    assert.match(
      defaulted.stdout,
      /^approval erase_all: default \(no rule: the command's default/m,
    );
    // Without rules the listing is as before.
    const plain = await runCli(["tools", "--no-config", "--tools", TOOLS], { raw: true });
    assert.doesNotMatch(plain.stdout, /^approval /m);
  });
});

Deno.test("batch: allow one write tool, deny the other; ask is refused (no person answers)", async () => {
  await withDir(async (dir) => {
    const input = await writeInput(dir, [{ id: "w", prompt: BOTH }]);
    const out = `${dir}/out`;
    const common = ["batch", input, "--out", out, "--tools", TOOLS, "--no-config"];
    const run = await runBatchCli([
      ...common,
      "--approve",
      "allow=file_ticket",
      "--approve",
      "deny",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const [entry] = await indexLines(out);
    assert.deepEqual(entry?.tool_calls, { success: 1, error: 0, cancelled: 0, denied: 1 });
    const records = (await Deno.readTextFile(`${out}/items/w.ndjson`)).split("\n")
      .filter((line) => line !== "").map((line) => JSON.parse(line) as Rec);
    const calls = byTool(records);
    assert.equal(calls.get("file_ticket")?.approval.rule, "allow=file_ticket");
    assert.equal(calls.get("erase_all")?.approval.rule, "deny");
    const ask = await runBatchCli([...common, "--approve", "ask=erase_all"]);
    assert.equal(ask.code, 2);
    assert.match(ask.stderr, /--approve ask is not available in batch .*"ask=erase_all"/);
    // An ask rule of the config is refused too, naming the rule.
    const config = `${dir}/magi-tools.jsonc`;
    await Deno.writeTextFile(config, JSON.stringify({ approvals: [{ decision: "ask" }] }));
    const configured = await runBatchCli([
      "batch",
      input,
      "--out",
      `${dir}/out2`,
      "--tools",
      TOOLS,
      "--config",
      config,
    ]);
    assert.equal(configured.code, 2);
    assert.match(configured.stderr, /The config's approvals say ask \(its default\)/);
  });
});

Deno.test("mcp --approve allow=file_ticket --approve deny: the rules decide each write tool", async () => {
  const mcp = await startMcpStdio(TOOLS, ["--approve", "allow=file_ticket", "--approve", "deny"]);
  try {
    const call = async (name: string) =>
      await mcp.client.callTool({ name, arguments: { text: "x" } }) as {
        isError?: boolean;
        content: { text: string }[];
      };
    const allowed = await call("file_ticket");
    assert.notEqual(allowed.isError, true);
    assert.equal(allowed.content[0]?.text, "file_ticket done x");
    const denied = await call("erase_all");
    assert.equal(denied.isError, true);
    assert.match(denied.content[0]!.text, /^Write tool not run: erase_all: the approval rule deny/);
  } finally {
    await mcp.close();
  }
});

Deno.test("inspect --approve deny=erase_* --approve allow: the rules decide, the page is not asked", async () => {
  const inspector = await startInspector({
    args: ["--tools", TOOLS, "--approve", "deny=erase_*", "--approve", "allow"],
  });
  try {
    const q = `token=${inspector.token}`;
    const events = await fetch(`${inspector.base}/api/events?${q}`);
    const turn = await fetch(`${inspector.base}/api/turn?${q}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt: BOTH }),
    });
    assert.equal(turn.status, 200, await turn.text());
    const seen: Rec[] = [];
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    while (!seen.some((e) => e.type === "turn" && e.state === "finished")) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const data = buffer.slice(0, end).split("\n").find((l) => l.startsWith("data: "));
        buffer = buffer.slice(end + 2);
        if (data !== undefined) seen.push(JSON.parse(data.slice(6)) as Rec);
      }
    }
    await reader.cancel();
    const records = seen.filter((e) => e.type === "record").map((e) => e.record as Rec);
    const calls = byTool(records);
    assert.equal(calls.get("erase_all")?.outcome, "approval_denied");
    assert.equal(calls.get("erase_all")?.approval.rule, "deny=erase_*");
    assert.equal(calls.get("file_ticket")?.outcome, "success");
    assert.equal(calls.get("file_ticket")?.approval.rule, "allow");
    assert.ok(!seen.some((e) => e.type === "approval" && e.call !== undefined), "page not asked");
  } finally {
    assert.equal(await inspector.stop(), 130);
  }
});
