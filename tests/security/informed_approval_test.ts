/**
 * Issue 31 item 5: a person approves a write tool call with the facts in front of them. Where
 * the host asks (`run --approve ask` on a terminal, `mcp` through elicitation) it shows the
 * tool and every argument field, in sorted key order, each value cut on its own with a note of
 * how much was cut, so a long value cannot push another field out of view; and it validates
 * the arguments against the tool's schema first, so an invalid call is never put to a person.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { REFERENCE_AGENT, ROOT } from "../e2e/_cli.ts";
import { hasPython } from "../e2e/_terminal.ts";
import { mcpArgs } from "../mcp/_stdio.ts";

const TOOLS = `${ROOT}tests/security/fixtures/approve_tools`;
const PTY = `${ROOT}tests/e2e/fixtures/pty_ask.py`;
const PYTHON = await hasPython();
/** The long value, and the field that sorts after it. */
const BODY = "a".repeat(10_000);
const TARGET = "/home/me/.ssh/authorized_keys";
const LONG_CALL = { body: BODY, target: TARGET, mode: "append" };

type Rec = Record<string, unknown>;

/** `run --approve ask PROMPT` on a pseudo-terminal, stdout piped; types `keys` at `[y/N]`. */
async function askOnTerminal(prompt: string, keys: string) {
  const home = await Deno.makeTempDir({ prefix: "magi-tools-sec-ask-" });
  try {
    const output = await new Deno.Command("python3", {
      args: [
        PTY,
        "--stdout-pipe",
        "--type",
        "[y/N]",
        keys,
        Deno.execPath(),
        "run",
        "-A",
        `${ROOT}cli.ts`,
        "run",
        "--tools",
        TOOLS,
        "--approve",
        "ask",
        prompt,
      ],
      cwd: ROOT,
      stdin: "null",
      env: { NO_COLOR: "1", MC_HOME: home, MAGI_CODE_AGENT: REFERENCE_AGENT },
    }).output();
    const result = JSON.parse(new TextDecoder().decode(output.stdout)) as {
      code: number;
      terminal: string;
      stdout: string;
    };
    const records = result.stdout.split("\n").filter((line) => line !== "").map((line) =>
      JSON.parse(line) as Rec
    );
    return { code: result.code, terminal: result.terminal.replaceAll("\r\n", "\n"), records };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test({
  name: "run --approve ask: the prompt shows every field, a long value cut on its own line",
  ignore: !PYTHON,
  async fn() {
    const result = await askOnTerminal(`save_note ${JSON.stringify(LONG_CALL)}`, "n\n");
    const all = `${result.terminal}\n${result.records.map((r) => JSON.stringify(r)).join("\n")}`;
    assert.equal(result.code, 0, all);
    assert.match(result.terminal, /Approve write tool save_note\? It runs with these arguments:\n/);
    // Sorted keys, one per line; the long value cut with a note; the field after it shown whole.
    assert.match(
      result.terminal,
      /\n {2}body: "a{20,}… \(\d+ more bytes not shown\)\n {2}mode: "append"\n {2}target: "\/home\/me\/\.ssh\/authorized_keys"\n\[y\/N\] \(expires in \d+s\): n\n/,
      all,
    );
    // The person said no: the tool did not run, and the model is told why.
    const asked = result.records.filter((r) => r.type === "approval" && "call_id" in r);
    assert.equal(asked.length, 1, all);
    assert.equal(asked[0]!.decision, "deny");
    assert.equal(asked[0]!.decided_by, "user");
    const done = result.records.find((r) => r.type === "tool.result");
    assert.equal(done?.outcome, "error", all);
    assert.equal(done?.error_code, "approval_denied", all);
  },
});

Deno.test({
  name: "run --approve ask: y runs the call that was shown",
  ignore: !PYTHON,
  async fn() {
    const result = await askOnTerminal(`save_note ${JSON.stringify(LONG_CALL)}`, "y\n");
    const all = `${result.terminal}\n${result.records.map((r) => JSON.stringify(r)).join("\n")}`;
    assert.equal(result.code, 0, all);
    assert.match(
      result.terminal,
      /\n {2}target: "\/home\/me\/\.ssh\/authorized_keys"\n\[y\/N\] \(expires in \d+s\): y\n/,
    );
    const done = result.records.find((r) => r.type === "tool.result");
    assert.equal(done?.outcome, "success", all);
  },
});

Deno.test({
  name: "run --approve ask: invalid arguments are never put to the person",
  ignore: !PYTHON,
  async fn() {
    // `target` missing: the schema refuses it before anyone is asked.
    const result = await askOnTerminal(`save_note ${JSON.stringify({ body: "x" })}`, "y\n");
    const all = `${result.terminal}\n${result.records.map((r) => JSON.stringify(r)).join("\n")}`;
    assert.equal(result.code, 0, all);
    assert.doesNotMatch(result.terminal, /\[y\/N\]/, all);
    assert.deepEqual(result.records.filter((r) => r.type === "approval" && "call_id" in r), []);
    const done = result.records.find((r) => r.type === "tool.result");
    assert.equal(done?.error_code, "invalid_arguments", all);
  },
});

interface Elicit {
  params: { message: string };
}

async function mcpClient(asked: Elicit[]): Promise<Client> {
  const c = new Client({ name: "test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  c.setRequestHandler(ElicitRequestSchema, (request: Elicit) => {
    asked.push(request);
    return { action: "decline" };
  });
  await c.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: mcpArgs(TOOLS, []),
      cwd: ROOT,
      stderr: "ignore",
    }),
  );
  return c;
}

type CallResult = { content: { type: string; text?: string }[]; isError?: boolean };

Deno.test("mcp: the elicitation message shows every field, the one after a long value too", async () => {
  const asked: Elicit[] = [];
  const c = await mcpClient(asked);
  try {
    const result = await c.callTool({ name: "save_note", arguments: LONG_CALL }) as CallResult;
    assert.equal(result.isError, true);
    assert.equal(asked.length, 1);
    const message = asked[0]!.params.message;
    assert.match(message, /^ {2}body: "a+… \(\d+ more bytes not shown\)$/m);
    assert.match(message, /^ {2}mode: "append"$/m);
    assert.match(message, /^ {2}target: "\/home\/me\/\.ssh\/authorized_keys"$/m);
    assert.ok(message.indexOf("body:") < message.indexOf("mode:"));
    assert.ok(message.indexOf("mode:") < message.indexOf("target:"));
    assert.ok(message.length < 2_000, `the long value is cut: ${message.length} characters`);
  } finally {
    await c.close();
  }
});

Deno.test("mcp: invalid arguments are answered invalid_arguments and never put to the user", async () => {
  const asked: Elicit[] = [];
  const c = await mcpClient(asked);
  try {
    for (
      const args of [{ body: "x" }, { body: "x", target: "t", extra: 1 }, { body: 1, target: "t" }]
    ) {
      const result = await c.callTool({ name: "save_note", arguments: args }) as CallResult;
      assert.equal(result.isError, true, JSON.stringify(args));
      const text = result.content.map((item) => item.text ?? "").join("\n");
      assert.match(text, /^Invalid arguments/, text);
    }
    assert.equal(asked.length, 0, "nobody was asked about an invalid call");
  } finally {
    await c.close();
  }
});
