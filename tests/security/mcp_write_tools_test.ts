/**
 * Attack family: write tools behind `magi-tools mcp` without the approval policy (issue 23
 * item 6, issue 26 "Write-tool approval over MCP"). A client (or a prompt-injected model behind
 * one) called `write_marker` and it ran, unasked. Now `mcp --approve deny|allow|ask` (default
 * `ask`) decides, over stdio and HTTP: `ask` sends `elicitation/create` when the client
 * declared the capability and runs the tool only on `accept` with `approve: true`; decline,
 * cancel, an error answer and no answer before the expiry do not run it; a client without the
 * capability gets a tool error saying how to allow. Read tools are never asked about.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { ROOT } from "../e2e/_cli.ts";
import { mcpArgs } from "../mcp/_stdio.ts";
import { startMcpHttp } from "../mcp/_http.ts";

const TOOLS = `${ROOT}tests/security/fixtures/mcp_door`;

interface CallResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
}
interface Elicit {
  params: {
    mode?: string;
    message: string;
    requestedSchema: { properties: Record<string, { type: string }>; required?: string[] };
  };
}
type ElicitAnswer = { action: string; content?: Record<string, unknown> };

/** What the test client does with `elicitation/create`; null: declare no elicitation capability. */
type Handler = ((request: Elicit) => Promise<ElicitAnswer> | ElicitAnswer) | null;

function client(handler: Handler, asked: Elicit[]): Client {
  const c = new Client(
    { name: "test", version: "1.0.0" },
    { capabilities: handler === null ? {} : { elicitation: {} } },
  );
  if (handler !== null) {
    c.setRequestHandler(ElicitRequestSchema, (request: Elicit) => {
      asked.push(request);
      return handler(request);
    });
  }
  return c;
}

async function stdio(args: string[], handler: Handler, asked: Elicit[]): Promise<Client> {
  const c = client(handler, asked);
  await c.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: mcpArgs(TOOLS, args),
      cwd: ROOT,
      stderr: "pipe",
    }),
  );
  return c;
}

/** Call `write_marker` writing `text` into a fresh file; returns the result and the file's text. */
async function writeMarker(c: Client, text = "written"): Promise<[CallResult, string | null]> {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-mcp-write-" });
  try {
    const path = `${dir}/marker`;
    const result = await c.callTool({
      name: "write_marker",
      arguments: { path, text },
    }) as CallResult;
    return [result, await Deno.readTextFile(path).catch(() => null)];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function text(result: CallResult): string {
  return result.content.map((item) => item.text ?? "").join("\n");
}

Deno.test("mcp (stdio, default --approve ask): a client that cannot be asked does not get a write tool run", async () => {
  const c = await stdio([], null, []);
  try {
    const [result, written] = await writeMarker(c);
    assert.equal(written, null, "the write tool did not run");
    assert.equal(result.isError, true);
    assert.match(
      text(result),
      /^Write tool not run: write_marker: .*cannot be asked .*add --approve allow to the server's command/,
    );
    // Read tools are unaffected.
    const read = await c.callTool({ name: "echo_read", arguments: { text: "hi" } }) as CallResult;
    assert.equal(read.isError, undefined);
    assert.equal(text(read), "echo: hi");
  } finally {
    await c.close();
  }
});

Deno.test("mcp (stdio, ask): the user approves through elicitation/create and the tool runs; read tools are not asked", async () => {
  const asked: Elicit[] = [];
  const c = await stdio([], () => ({ action: "accept", content: { approve: true } }), asked);
  try {
    const read = await c.callTool({ name: "echo_read", arguments: { text: "hi" } }) as CallResult;
    assert.equal(text(read), "echo: hi");
    assert.equal(asked.length, 0, "a read tool is not asked about");
    const [result, written] = await writeMarker(c, "approved");
    assert.equal(result.isError, undefined, text(result));
    assert.equal(written, "approved");
    assert.equal(asked.length, 1);
    const request = asked[0]!.params;
    assert.equal(request.mode, "form");
    assert.match(request.message, /write tool write_marker/);
    assert.match(request.message, /^ {2}text: "approved"$/m, "the message shows the arguments");
    assert.equal(request.requestedSchema.properties["approve"]?.type, "boolean");
    assert.deepEqual(request.requestedSchema.required, ["approve"]);
  } finally {
    await c.close();
  }
});

Deno.test("mcp (stdio, ask): decline, cancel, accept without approve and an error answer do not run the tool", async () => {
  const answers: (() => ElicitAnswer)[] = [
    () => ({ action: "decline" }),
    () => ({ action: "cancel" }),
    () => ({ action: "accept", content: { approve: false } }),
    () => ({ action: "accept" }),
    () => {
      throw new Error("the user interface is gone");
    },
  ];
  const expected = [
    /the user did not approve it$/,
    /the approval request was cancelled$/,
    /the user did not approve it$/,
    /the user did not approve it$/,
    /the approval request failed: .*the user interface is gone/,
  ];
  let next = 0;
  const asked: Elicit[] = [];
  const c = await stdio([], () => answers[next]!(), asked);
  try {
    for (; next < answers.length; next++) {
      const [result, written] = await writeMarker(c);
      assert.equal(written, null, `answer ${next}: not run`);
      assert.equal(result.isError, true);
      assert.match(text(result), /^Write tool not run: write_marker: /);
      assert.match(text(result), expected[next]!);
    }
    assert.equal(asked.length, answers.length);
  } finally {
    await c.close();
  }
});

Deno.test("mcp (stdio, ask): no answer before --approve-timeout does not run the tool", async () => {
  const pending: ((answer: ElicitAnswer) => void)[] = [];
  const asked: Elicit[] = [];
  const c = await stdio(
    ["--approve-timeout", "0.3"],
    () => new Promise<ElicitAnswer>((resolve) => pending.push(resolve)),
    asked,
  );
  try {
    const [result, written] = await writeMarker(c);
    assert.equal(written, null, "not run");
    assert.equal(result.isError, true);
    assert.match(
      text(result),
      /^Write tool not run: write_marker: the user did not answer the approval request within 300 ms$/,
    );
    assert.equal(asked.length, 1);
    assert.match(asked[0]!.params.message, /\(no answer within 300 ms: not run\)$/);
  } finally {
    // A late approval after the expiry changes nothing (the request was cancelled).
    for (const resolve of pending) resolve({ action: "accept", content: { approve: true } });
    await c.close();
  }
});

Deno.test("mcp (stdio): --approve deny refuses without asking; --approve allow runs without asking", async () => {
  const asked: Elicit[] = [];
  const approveAll = () => ({ action: "accept", content: { approve: true } });
  const deny = await stdio(["--approve", "deny"], approveAll, asked);
  try {
    const [result, written] = await writeMarker(deny);
    assert.equal(written, null);
    assert.equal(result.isError, true);
    assert.match(text(result), /^Write tool not run: write_marker: .*--approve deny/);
    const read = await deny.callTool({ name: "echo_read", arguments: { text: "r" } }) as CallResult;
    assert.equal(text(read), "echo: r");
  } finally {
    await deny.close();
  }
  const allow = await stdio(["--approve", "allow"], null, asked);
  try {
    const [result, written] = await writeMarker(allow, "allowed");
    assert.equal(result.isError, undefined, text(result));
    assert.equal(written, "allowed");
  } finally {
    await allow.close();
  }
  assert.equal(asked.length, 0, "neither asked");
});

Deno.test("mcp --http (ask): approval travels over the call's stream; without the capability the tool does not run", async () => {
  const server = await startMcpHttp({ tools: TOOLS });
  try {
    const connect = async (handler: Handler, asked: Elicit[]) => {
      const c = client(handler, asked);
      await c.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${server.token}` } },
        }),
      );
      return c;
    };
    const asked: Elicit[] = [];
    const approving = await connect(
      () => ({ action: "accept", content: { approve: true } }),
      asked,
    );
    try {
      const [result, written] = await writeMarker(approving, "over http");
      assert.equal(result.isError, undefined, text(result));
      assert.equal(written, "over http");
      assert.equal(asked.length, 1);
    } finally {
      await approving.close();
    }
    const declining = await connect(() => ({ action: "decline" }), asked);
    try {
      const [result, written] = await writeMarker(declining);
      assert.equal(written, null);
      assert.match(text(result), /the user did not approve it$/);
    } finally {
      await declining.close();
    }
    const unaskable = await connect(null, []);
    try {
      const [result, written] = await writeMarker(unaskable);
      assert.equal(written, null);
      assert.match(text(result), /cannot be asked/);
    } finally {
      await unaskable.close();
    }
  } finally {
    assert.equal(await server.stop(), 0, server.stderr());
  }
});
